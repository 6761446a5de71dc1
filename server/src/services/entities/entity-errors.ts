/** RecordValidationError says a record body breaks its entity schema; the message names the field (HTTP 422). */
export class RecordValidationError extends Error {
  override name = 'RecordValidationError';
  readonly statusCode = 422;
}
