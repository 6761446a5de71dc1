import LocalStore from '@fastify/rate-limit/store/LocalStore.js';
import RedisStore from '@fastify/rate-limit/store/RedisStore.js';
import type { Redis } from 'ioredis';

/** RateLimitDecision says whether one more attempt is allowed and, if not, when to retry. */
export interface RateLimitDecision {
  allowed: boolean;
  retryAfterSeconds: number;
}

/** RateLimiter counts hits per key in fixed windows; every limit of the server (auth, integrations) uses one. */
export interface RateLimiter {
  /** hit counts one attempt for key and says whether it is within limit per windowMs. */
  hit(key: string, limit: number, windowMs: number): Promise<RateLimitDecision>;
}

/** DEFAULT_MAX_KEYS bounds the in-process counters: least recently used keys are dropped beyond it. */
export const DEFAULT_MAX_KEYS = 10_000;

export interface RateLimiterOptions {
  /** redis shares the counters between instances (REDIS_URL); without it they live in this process. */
  redis?: Redis | undefined;
  /** prefix keeps deployments sharing one Redis apart. */
  prefix?: string;
  /** maxKeys bounds the in-process counters (an LRU), so an attacker's distinct keys cannot grow memory. */
  maxKeys?: number;
  /** onRedisError is told when Redis failed and the in-process counters answered instead. */
  onRedisError?: (error: Error) => void;
}

interface Store {
  incr(
    key: string,
    callback: (error: Error | null, result: { current: number; ttl: number } | null) => void,
    timeWindowMs: number,
    max: number,
  ): void;
}

function count(store: Store, key: string, limit: number, windowMs: number) {
  return new Promise<RateLimitDecision>((resolve, reject) => {
    store.incr(
      key,
      (error, result) => {
        if (error || !result) return reject(error ?? new Error('rate limit store answered nothing'));
        resolve({
          allowed: result.current <= limit,
          retryAfterSeconds: Math.max(1, Math.ceil(result.ttl / 1000)),
        });
      },
      windowMs,
      limit,
    );
  });
}

/**
 * createRateLimiter counts with the stores of @fastify/rate-limit: a bounded LRU in this process, or an
 * atomic Lua counter in Redis shared by every instance. While Redis is unreachable the in-process counters
 * answer, so limits still hold per instance and no request waits for Redis.
 */
export function createRateLimiter(options: RateLimiterOptions = {}): RateLimiter {
  const local: Store = new LocalStore(false, false, options.maxKeys ?? DEFAULT_MAX_KEYS);
  const shared: Store | null = options.redis
    ? new RedisStore(false, false, options.redis, `${options.prefix ?? 'queen'}:rate-limit:`)
    : null;
  return {
    async hit(key, limit, windowMs) {
      if (!shared) return count(local, key, limit, windowMs);
      try {
        return await count(shared, key, limit, windowMs);
      } catch (error) {
        options.onRedisError?.(error instanceof Error ? error : new Error(String(error)));
        return count(local, key, limit, windowMs);
      }
    },
  };
}
