import { z } from 'zod';
import { blankAsUndefined, count, milliseconds } from './env-values';

// How long and how many: the HTTP edge's own limits, so a stalled or flooding client holds no connection,
// descriptor or socket for long (Fastify 5 and Node leave most of these unbounded).

/** bytesPerSecond is a rate from 1 KiB/s to 1 GiB/s, fallback when unset. */
const bytesPerSecond = (fallback: number) =>
  z.preprocess(
    blankAsUndefined,
    z.coerce
      .number()
      .int('must be a whole number of bytes per second')
      .min(1024, 'must be at least 1024 bytes per second')
      .max(1024 ** 3, `must be at most ${1024 ** 3} bytes per second`)
      .default(fallback),
  );

/** HttpEnvShape lists the environment variables of request timeouts and per-IP caps. */
export const HttpEnvShape = {
  // A request body must arrive within this, plus the time its bytes earn at REQUEST_MIN_BYTES_PER_SECOND
  // (so a 50 MB upload on a slow link finishes, a stalled body is cut).
  REQUEST_TIMEOUT_MS: milliseconds(30_000),
  REQUEST_MIN_BYTES_PER_SECOND: bytesPerSecond(32 * 1024),
  HTTP_HEADERS_TIMEOUT_MS: milliseconds(10_000),
  // Behind a load balancer, keep it above the balancer's idle timeout (Fastify's 72 s is above the usual 60 s).
  HTTP_KEEP_ALIVE_TIMEOUT_MS: milliseconds(72_000),
  MAX_CONNECTIONS_PER_IP: count(256, 1_000_000),
  // Unset: derived from the open-files limit (lib/open-files-limit.ts), so sockets never starve HTTP of files.
  REALTIME_MAX_SOCKETS: z.preprocess(
    blankAsUndefined,
    z.coerce
      .number()
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(10_000_000, 'must be at most 10000000')
      .optional(),
  ),
  REALTIME_MAX_SOCKETS_PER_IP: count(100, 1_000_000),
  REALTIME_HANDSHAKES_PER_IP_PER_MINUTE: count(120, 1_000_000),
};
