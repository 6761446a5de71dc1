// Amounts spent per key per UTC day: upload bytes, LLM tokens. A rate limiter counts attempts; a share
// of a daily budget counts what was used (a 40 MB upload, a 9,000-token answer), known only once the work
// is done. So a caller is checked before (is anything left today?) and charged after. Counters live in
// Redis when the server has one (every instance shares them), else in a bounded in-process map; while
// Redis is unreachable the in-process map answers, as the rate limiter does.
import type { Redis } from 'ioredis';

const DAY_MS = 86_400_000;

/** DailyUsage is what a key spent today and charges it more. */
export interface DailyUsage {
  /** usedToday is what key has spent since the last UTC midnight. */
  usedToday(key: string): Promise<number>;
  /** charge adds amount to key's spending today. */
  charge(key: string, amount: number): Promise<void>;
  /** secondsToMidnight is when every share starts again (a Retry-After). */
  secondsToMidnight(): number;
}

export interface DailyUsageOptions {
  redis?: Redis | undefined;
  prefix?: string;
  /** maxKeys bounds the in-process counters (least recently used dropped), so distinct keys cannot grow memory. */
  maxKeys?: number;
  onRedisError?: (error: Error) => void;
  now?: () => number;
}

/** createDailyUsage counts per-key daily spending in Redis, or in this process without it. */
export function createDailyUsage(options: DailyUsageOptions = {}): DailyUsage {
  const now = options.now ?? Date.now;
  const maxKeys = options.maxKeys ?? 10_000;
  const local = new Map<string, number>();
  const day = () => Math.floor(now() / DAY_MS);
  // The day is part of the key: yesterday's counters are never read again (and expire in Redis).
  const keyOf = (key: string) => `${options.prefix ?? 'queen'}:daily-usage:${day()}:${key}`;
  const fallback = (error: unknown) =>
    options.onRedisError?.(error instanceof Error ? error : new Error(String(error)));

  const localUsed = (key: string) => local.get(key) ?? 0;
  const localCharge = (key: string, amount: number) => {
    const total = localUsed(key) + amount;
    local.delete(key);
    local.set(key, total);
    if (local.size > maxKeys) {
      // Keys of past days go first as they are the oldest; then the least recently charged.
      local.delete(local.keys().next().value as string);
    }
  };

  return {
    async usedToday(key) {
      const full = keyOf(key);
      if (options.redis) {
        try {
          return Number((await options.redis.get(full)) ?? 0);
        } catch (error) {
          fallback(error);
        }
      }
      return localUsed(full);
    },
    async charge(key, amount) {
      if (!(amount > 0)) return;
      const full = keyOf(key);
      if (options.redis) {
        try {
          await options.redis
            .multi()
            .incrby(full, Math.ceil(amount))
            .pexpireat(full, (day() + 2) * DAY_MS)
            .exec();
          return;
        } catch (error) {
          fallback(error);
        }
      }
      localCharge(full, amount);
    },
    secondsToMidnight: () => Math.max(1, Math.ceil(((day() + 1) * DAY_MS - now()) / 1000)),
  };
}
