/** RecordValidationError says a record body breaks its entity schema; the message names the field (HTTP 422). */
export class RecordValidationError extends Error {
  override name = 'RecordValidationError';
  readonly statusCode = 422;
}

/** ImportRefusedError refuses a whole import; problems is its per-row report (already capped), count the total. */
export class ImportRefusedError extends Error {
  constructor(
    readonly problems: { row: number; field: string | null; message: string }[],
    readonly count: number,
  ) {
    super(
      `Import refused: ${count} problem${count === 1 ? '' : 's'}, nothing was imported` +
        (problems[0]
          ? ` (first: row ${problems[0].row}${problems[0].field ? `, field ${problems[0].field}` : ''}: ${problems[0].message})`
          : ''),
    );
  }
}
