import { randomBytes } from 'node:crypto';

/**
 * requestIds returns a generator of request ids unique across restarts and instances (function logs keep
 * them): a random per-process prefix and a counter. A UUID per request cost ~2 µs, and its length as much
 * again in each request's child logger, on every request (the bench:ab list route).
 */
export function requestIds(): () => string {
  const prefix = randomBytes(9).toString('base64url');
  let counter = 0;
  return () => `${prefix}-${(counter += 1).toString(36)}`;
}
