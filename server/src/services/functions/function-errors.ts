// What can go wrong calling a function, as kinds the functions route maps to HTTP (never a request here).
import { InvalidInputError } from '../../lib/errors';

/** FunctionsUnavailableError: no usable Deno binary on this server (503). */
export class FunctionsUnavailableError extends Error {
  override name = 'FunctionsUnavailableError';
}

/** FunctionLoadError: the function did not start; detail is its compile error (502; detail for admins). */
export class FunctionLoadError extends Error {
  override name = 'FunctionLoadError';
  constructor(
    message: string,
    readonly detail: string,
  ) {
    super(message);
  }
}

/** FunctionCrashError: the process died or broke the connection during the call (502). */
export class FunctionCrashError extends Error {
  override name = 'FunctionCrashError';
}

/** FunctionTimeoutError: the call outlived FUNCTION_TIMEOUT_S; its process was killed (504). */
export class FunctionTimeoutError extends Error {
  override name = 'FunctionTimeoutError';
}

/** FunctionsBusyError: every process slot is serving a call (503, retry). */
export class FunctionsBusyError extends Error {
  override name = 'FunctionsBusyError';
}

/** callStatusOf is the status a failed call is logged with (routes/error-map.ts answers the same). */
export function callStatusOf(error: unknown): number {
  if (error instanceof InvalidInputError) return 400;
  if (error instanceof FunctionTimeoutError) return 504;
  if (error instanceof FunctionsUnavailableError || error instanceof FunctionsBusyError) return 503;
  return 502;
}
