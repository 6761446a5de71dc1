import { httpStatusOf } from '../../../lib/http-status';

const NETWORK = 'We could not reach the server. Check your connection and try again.';
const FALLBACK = 'Something went wrong. Please try again.';

interface ErrorShape {
  message?: unknown;
  data?: { message?: unknown; extra_data?: { reason?: unknown } };
  originalError?: { response?: { headers?: Record<string, unknown> } };
}

function retryAfterSeconds(error: ErrorShape): number | null {
  const value = Number(error.originalError?.response?.headers?.['retry-after']);
  return Number.isFinite(value) && value > 0 ? Math.ceil(value) : null;
}

/** authErrorReason reads a Base44 `extra_data.reason` (e.g. `email_not_verified`) from a failed call. */
export function authErrorReason(error: unknown): string | null {
  const reason = (error as ErrorShape | null)?.data?.extra_data?.reason;
  return typeof reason === 'string' ? reason : null;
}

/** authErrorMessage turns a failed auth call into the sentence shown inline: the server's own words first. */
export function authErrorMessage(error: unknown): string {
  if (typeof error !== 'object' || error === null) return FALLBACK;
  const shape = error as ErrorShape;
  const status = httpStatusOf(error);
  if (status === undefined) return NETWORK;
  const serverMessage = typeof shape.data?.message === 'string' ? shape.data.message : null;
  if (serverMessage) return serverMessage;
  if (status === 429) {
    const wait = retryAfterSeconds(shape);
    return wait ? `Too many attempts. Try again in ${wait} seconds.` : 'Too many attempts. Try again later.';
  }
  return typeof shape.message === 'string' && shape.message ? shape.message : FALLBACK;
}
