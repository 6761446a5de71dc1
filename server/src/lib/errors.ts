// Domain errors carry a kind, not an HTTP status: routes and the app error handler map kinds to HTTP.

/** NotFoundError says the thing asked for does not exist (an app, an integration, a file). */
export class NotFoundError extends Error {
  override name = 'NotFoundError';
}

/** InvalidInputError says the caller sent something the rules reject; the message names the field. */
export class InvalidInputError extends Error {
  override name = 'InvalidInputError';
}

/** UpstreamError says a service this server depends on failed; the message must hold no secret. */
export class UpstreamError extends Error {
  override name = 'UpstreamError';
}
