import { Redis } from 'ioredis';
import { describeRedisUrl } from './connection-url';

/** RateLimitLog is the part of a pino logger the rate-limit connection uses. */
export interface RateLimitLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

/**
 * createRateLimitRedis opens the connection rate-limit counters live on. A command never waits for Redis:
 * while it is down commands fail at once (no offline queue) and the limiter counts in process instead.
 */
export function createRateLimitRedis(redisUrl: string, log: RateLimitLog) {
  const label = describeRedisUrl(redisUrl);
  const client = new Redis(redisUrl, {
    connectionName: 'queen-rate-limit',
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 1_000,
    retryStrategy: (attempt) => Math.min(attempt * 100, 5_000),
  });
  let down = false;
  const reportFallback = (error: Error) => {
    if (down) return;
    down = true;
    log.warn(
      { redis: label, reason: error.message },
      'Redis unreachable: rate limits count per instance until it is back',
    );
  };
  // NB: an ioredis client without an `error` listener crashes the process when Redis is unreachable.
  client.on('error', (error: Error) => reportFallback(error));
  client.on('ready', () => {
    if (!down) return;
    down = false;
    log.info({ redis: label }, 'Redis reachable again: rate limits shared');
  });
  return {
    client,
    reportFallback,
    /** close ends the connection without waiting on an unreachable Redis. */
    async close() {
      if (client.status === 'ready') await client.quit().catch(() => undefined);
      client.disconnect();
    },
  };
}
