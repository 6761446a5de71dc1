import { blankAsUndefined, count, milliseconds } from './env-values';
import { z } from 'zod';

/** AppLogsEnvShape lists the environment variables of page logs (`appLogs`). */
export const AppLogsEnvShape = {
  // Page views, function logs and audit rows older than this are deleted by a periodic prune (off the request path).
  APP_LOG_RETENTION_DAYS: count(90, 36_500),
  // Page views one IP may log per minute (shared through Redis with REDIS_URL); more → 429.
  APP_LOG_RATE_LIMIT_PER_MINUTE: count(600, 1_000_000),
  // Page views wait in memory at most this long before one batched insert.
  APP_LOG_FLUSH_MS: milliseconds(1_000),
  // At most this many page views wait in memory; beyond it new ones are dropped (counted, logged).
  APP_LOG_BUFFER_MAX: z.preprocess(
    blankAsUndefined,
    z.coerce
      .number()
      .int('must be a whole number')
      .min(100, 'must be at least 100')
      .max(1_000_000, 'must be at most 1000000')
      .default(20_000),
  ),
};
