// The one map from errors to HTTP answers, in the protocol's error shape (docs/protocol-notes.md,
// "Errors"): the SDK reads a string `message` (then `detail`), and `extra_data`/`code` ride along in `data`.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { databaseErrorAnswer } from '../lib/database-errors';
import {
  FunctionCrashError,
  FunctionLoadError,
  FunctionsBusyError,
  FunctionsUnavailableError,
  FunctionTimeoutError,
} from '../services/functions/function-errors';
import {
  ConflictError,
  DatabaseUnavailableError,
  GoneError,
  PayloadTooLargeError,
  ForbiddenError,
  InvalidInputError,
  NotConfiguredError,
  NotFoundError,
  NotImplementedError,
  OutboundLimitError,
  OutboundRefusedError,
  StorageFullError,
  TooManyRequestsError,
  UnauthorizedError,
  UpstreamError,
} from '../lib/errors';
import { ImportRefusedError, RecordValidationError } from '../services/entities/entity-errors';
import { CONNECTOR_ERROR_STATUS, ConnectorError } from '../services/connectors/connector-errors';

/** ErrorBody is what a failed request answers: always a string `message`, sometimes more for the SDK. */
export type ErrorBody = { message: string } & Record<string, unknown>;

/** ErrorAnswer is the status, body and headers an error becomes, and what the log should say about it. */
export interface ErrorAnswer {
  status: number;
  body: ErrorBody;
  headers?: Record<string, string>;
  log?: { level: 'info' | 'warn' | 'error'; message: string; fields: Record<string, unknown> };
}

// The router's own errors (a malformed URL) get our error shape, not Fastify's raw body.
const ROUTER_ERRORS: Record<string, string> = {
  FST_ERR_BAD_URL: 'The URL is not valid: it holds a malformed percent-encoding',
  FST_ERR_MAX_PARAM_LENGTH: 'The URL is not valid: a path segment is too long',
};

const INTERNAL: ErrorAnswer = { status: 500, body: { message: 'Internal server error' } };

const withReason = (status: number, message: string, reason: string | undefined): ErrorAnswer => ({
  status,
  body: { message, ...(reason ? { extra_data: { reason } } : {}) },
});

// Whether a request may see an error's detail (a function's compile error: the app's admins only), asked
// only when such an error happens. Set by the route (allowErrorDetail); absent means no.
const detailChecks = new WeakMap<FastifyRequest, () => Promise<boolean>>();

/** allowErrorDetail says how to decide, if it comes to it, whether request may see an error's detail. */
export function allowErrorDetail(request: FastifyRequest, check: () => Promise<boolean>): void {
  detailChecks.set(request, check);
}

/** functionErrorAnswer maps what can go wrong calling a backend function (function-errors.ts). */
function functionErrorAnswer(error: unknown, detailAllowed: boolean): ErrorAnswer | null {
  if (error instanceof FunctionsUnavailableError) return { status: 503, body: { message: error.message } };
  if (error instanceof FunctionsBusyError) {
    return { status: 503, body: { message: error.message }, headers: { 'retry-after': '1' } };
  }
  if (error instanceof FunctionTimeoutError) return { status: 504, body: { message: error.message } };
  if (error instanceof FunctionCrashError) return { status: 502, body: { message: error.message } };
  if (error instanceof FunctionLoadError) {
    return {
      status: 502,
      body: { message: error.message, ...(detailAllowed ? { detail: error.detail } : {}) },
    };
  }
  return null;
}

/**
 * errorAnswer maps an error thrown by a route, a service or Fastify to its answer. bodyLimit is the
 * route's largest body, named when one was too large. Anything unknown is a 500 that says nothing more.
 */
export function errorAnswer(error: unknown, bodyLimit: number, detailAllowed = false): ErrorAnswer {
  if (error instanceof InvalidInputError) {
    const answer: ErrorAnswer = { status: 400, body: { message: error.message } };
    if (error.cause) {
      answer.log = { level: 'info', message: 'input refused by the database', fields: { err: error.cause } };
    }
    return answer;
  }
  if (error instanceof NotFoundError) return { status: 404, body: { message: error.message } };
  if (error instanceof ConflictError) return { status: 409, body: { message: error.message } };
  // A URL the caller chose that the outbound guard refused, or whose answer broke a limit.
  if (error instanceof OutboundRefusedError) return withReason(400, error.message, 'outbound_refused');
  if (error instanceof OutboundLimitError) {
    return error.reason === 'timeout'
      ? { status: 504, body: { message: error.message } }
      : withReason(400, error.message, 'outbound_too_large');
  }
  if (error instanceof NotImplementedError) return withReason(501, error.message, 'not_implemented');
  if (error instanceof UpstreamError) {
    return {
      status: 502,
      body: { message: error.message },
      log: { level: 'warn', message: 'an upstream service failed', fields: { reason: error.message } },
    };
  }
  if (error instanceof NotConfiguredError) {
    return {
      status: 503,
      body: { message: error.message },
      log: {
        level: 'warn',
        message: 'request refused: server setting missing',
        fields: { reason: error.message },
      },
    };
  }
  if (error instanceof UnauthorizedError) return withReason(401, error.message, error.reason);
  if (error instanceof ForbiddenError) return withReason(403, error.message, error.reason);
  if (error instanceof TooManyRequestsError) {
    return {
      status: 429,
      body: { message: error.message },
      headers: { 'retry-after': String(error.retryAfterSeconds) },
    };
  }
  if (error instanceof StorageFullError) return { status: 507, body: { message: error.message } };
  if (error instanceof PayloadTooLargeError) return { status: 413, body: { message: error.message } };
  if (error instanceof GoneError) return { status: 410, body: { message: error.message } };
  const functionAnswer = functionErrorAnswer(error, detailAllowed);
  if (functionAnswer) return functionAnswer;
  if ((error as { code?: unknown } | null)?.code === 'ERR_STREAM_PREMATURE_CLOSE') {
    return { status: 400, body: { message: 'The request body ended before it was complete' } };
  }
  if (error instanceof DatabaseUnavailableError) {
    return {
      status: 503,
      body: { message: error.message },
      headers: { 'retry-after': String(error.retryAfterSeconds) },
    };
  }
  if (error instanceof RecordValidationError) {
    // The envelope production answers with; the SDK reads `message`.
    return {
      status: 422,
      body: {
        error_type: 'ValidationError',
        message: error.message,
        detail: error.message,
        request_id: null,
        traceback: '',
      },
    };
  }
  if (error instanceof ConnectorError) {
    return { status: CONNECTOR_ERROR_STATUS[error.code], body: { message: error.message, code: error.code } };
  }
  if (error instanceof ImportRefusedError) {
    // The SDK's ImportResult shape plus the report; as an error status the SDK throws with it in `data`.
    return {
      status: 422,
      body: {
        status: 'error',
        message: error.message,
        detail: error.message,
        details: error.message,
        output: null,
        errors: error.problems,
        error_count: error.count,
      },
    };
  }
  const code = (error as Partial<FastifyError> | null)?.code;
  const routing = code === undefined ? undefined : ROUTER_ERRORS[code];
  if (routing) return { status: 400, body: { message: routing } };
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return {
      status: 413,
      body: { message: `The request body is larger than the ${bodyLimit / 1024 / 1024} MB limit` },
    };
  }
  const database = databaseErrorAnswer(error);
  if (database) {
    // The driver's text names SQL and values: it goes to the log only.
    return {
      status: database.status,
      body: { message: database.message },
      log: {
        level: database.status >= 500 ? 'error' : 'warn',
        message: 'database error',
        fields: { err: error },
      },
    };
  }
  const status = (error as Partial<FastifyError> | null)?.statusCode ?? 500;
  if (status >= 400 && status < 500 && error instanceof Error) {
    return { status, body: { message: error.message } };
  }
  return { ...INTERNAL, log: { level: 'error', message: 'request failed', fields: { err: error } } };
}

/**
 * handleError is the app's one error handler (for handlers, hooks, parsers and the router): it answers
 * with errorAnswer and logs what the answer says to.
 */
export async function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  return answerError(error, request, reply, (answer) => answer.body);
}

/**
 * handleOpenAiError answers as handleError does, with the message also in OpenAI's `{error: {message, type,
 * code}}`: OpenAI's clients read only that (and the SDK reads `error.message` first). The AI gateway's
 * routes answer with it.
 */
export async function handleOpenAiError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  // OpenAI's clients retry a 429 on their own unless told not to: a spent budget (retry in minutes or
  // hours) would only be asked again, and counted again.
  if (error instanceof TooManyRequestsError && error.retryAfterSeconds > OPENAI_CLIENT_MAX_WAIT_SECONDS) {
    reply.header('x-should-retry', 'false');
  }
  return answerError(error, request, reply, openAiErrorBody);
}

/** OPENAI_CLIENT_MAX_WAIT_SECONDS is the longest Retry-After OpenAI's clients wait out before retrying. */
const OPENAI_CLIENT_MAX_WAIT_SECONDS = 60;

/** openAiErrorBody is answer's body plus OpenAI's error object (its `type` told by the status). */
export function openAiErrorBody(answer: ErrorAnswer): ErrorBody {
  const { status, body } = answer;
  const reason = (body.extra_data as { reason?: unknown } | undefined)?.reason;
  const type = status >= 500 ? 'server_error' : (OPENAI_ERROR_TYPES[status] ?? 'invalid_request_error');
  return {
    ...body,
    error: { message: body.message, type, code: typeof reason === 'string' ? reason : null },
  };
}

const OPENAI_ERROR_TYPES: Record<number, string> = {
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
};

async function answerError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
  bodyOf: (answer: ErrorAnswer) => ErrorBody,
) {
  const bodyLimit = request.routeOptions?.bodyLimit ?? request.server.initialConfig.bodyLimit ?? 0;
  const mayShowDetail = detailChecks.get(request);
  const detailAllowed = error instanceof FunctionLoadError && mayShowDetail ? await mayShowDetail() : false;
  const answer = errorAnswer(error, bodyLimit, detailAllowed);
  if (answer.log) request.log[answer.log.level](answer.log.fields, answer.log.message);
  if (answer.headers) reply.headers(answer.headers);
  return reply.code(answer.status).send(bodyOf(answer));
}
