// Domain errors carry a kind, not an HTTP status: routes and the app error handler map kinds to HTTP.

/** NotFoundError says the thing asked for does not exist (an app, an integration, a file). */
export class NotFoundError extends Error {
  override name = 'NotFoundError';
}

/** InvalidInputError says the caller sent something the rules reject; the message names the field. */
export class InvalidInputError extends Error {
  override name = 'InvalidInputError';
}

/** ConflictError says the request clashes with work in progress (an agent still answering): try again later. */
export class ConflictError extends Error {
  override name = 'ConflictError';
}

/** UpstreamError says a service this server depends on failed; the message must hold no secret. */
export class UpstreamError extends Error {
  override name = 'UpstreamError';
}

/**
 * UnauthorizedError says the caller is not signed in, or its token is invalid, expired or forged; reason
 * becomes `extra_data.reason` (e.g. `auth_required` on a private app).
 */
export class UnauthorizedError extends Error {
  override name = 'UnauthorizedError';
  constructor(
    message: string,
    readonly reason?: string,
  ) {
    super(message);
  }
}

/** ForbiddenError says the caller is known but may not do this; reason becomes `extra_data.reason`. */
export class ForbiddenError extends Error {
  override name = 'ForbiddenError';
  constructor(
    message: string,
    readonly reason?: string,
  ) {
    super(message);
  }
}

/** TooManyRequestsError says a rate limit was hit; retryAfterSeconds becomes the Retry-After header. */
export class TooManyRequestsError extends Error {
  override name = 'TooManyRequestsError';
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** PayloadTooLargeError says a body or file passed a size limit (answered 413); the message names it. */
export class PayloadTooLargeError extends Error {
  override name = 'PayloadTooLargeError';
}

/** GoneError says something existed but is no longer available, such as an expired signed URL (410). */
export class GoneError extends Error {
  override name = 'GoneError';
}

/** StorageFullError says an app has used all the storage the server gives it (answered 507). */
export class StorageFullError extends Error {
  override name = 'StorageFullError';
}

/**
 * DatabaseUnavailableError says the database cannot answer now: a query outlived its deadline (the
 * embedded database is being restarted) or PostgreSQL cancelled it. The request may be retried after
 * retryAfterSeconds; the message holds no SQL and no parameters.
 */
export class DatabaseUnavailableError extends Error {
  override name = 'DatabaseUnavailableError';
  constructor(
    message = 'The database is busy: try again in a moment',
    readonly retryAfterSeconds = 1,
  ) {
    super(message);
  }
}

/**
 * NotConfiguredError says the server lacks a setting the operator must supply (e.g. PUBLIC_URL) for this
 * request; it becomes a 503 whose message names the setting.
 */
export class NotConfiguredError extends Error {
  override name = 'NotConfiguredError';
}

/**
 * NotImplementedError says the request belongs to a capability this server does not have yet (LLM calls,
 * e-mail, extraction, functions, agents); it becomes a 501 whose message names that capability, so an app
 * fails with a clear reason rather than a 404.
 */
export class NotImplementedError extends Error {
  override name = 'NotImplementedError';
}

/** OutboundRefusedError is a caller-chosen URL the outbound guard will not fetch (private address, bad scheme). */
export class OutboundRefusedError extends Error {
  override name = 'OutboundRefusedError';
}

/** OutboundLimitError is an outbound answer over its size cap or past its deadline. */
export class OutboundLimitError extends Error {
  override name = 'OutboundLimitError';
  constructor(
    message: string,
    readonly reason: 'size' | 'timeout',
  ) {
    super(message);
  }
}
