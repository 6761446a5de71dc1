// Amounts spent per key per window (a UTC day, a minute): upload bytes, LLM tokens, time spent scanning.
// A rate limiter counts attempts; a share of a budget counts what was used (a 40 MB upload, a 9,000-token
// answer, 800 ms of regex scanning), known only once the work is done. So a caller is checked before (is
// anything left in this window?) and charged after. Counters live in Redis when the server has one (every
// instance shares them), else in a bounded in-process map; while Redis is unreachable the in-process map
// answers, as the rate limiter does. Windows are aligned to the epoch (a day window starts at UTC midnight).
import type { Redis } from 'ioredis';

const DAY_MS = 86_400_000;

/** DAY_WINDOW_MS is a UTC day, the window of daily shares. */
export const DAY_WINDOW_MS = DAY_MS;

/** UsageCounter is what a key spent in the current window, and charges it more. */
export interface UsageCounter {
  /** used is what key has spent since the current window began. */
  used(key: string): Promise<number>;
  /**
   * charge adds amount to key's spending in the current window (a negative amount gives back what a
   * reservation did not use; never below zero) and returns the new total.
   */
  charge(key: string, amount: number): Promise<number>;
  /** secondsToReset is when every share starts again (a Retry-After). */
  secondsToReset(): number;
}

export interface UsageCounterOptions {
  /** windowMs is the window's length (default a UTC day). */
  windowMs?: number;
  redis?: Redis | undefined;
  prefix?: string;
  /** maxKeys bounds the in-process counters (least recently used dropped), so distinct keys cannot grow memory. */
  maxKeys?: number;
  onRedisError?: (error: Error) => void;
  now?: () => number;
}

/** createUsageCounter counts per-key spending per window in Redis, or in this process without it. */
export function createUsageCounter(options: UsageCounterOptions = {}): UsageCounter {
  const now = options.now ?? Date.now;
  const windowMs = options.windowMs ?? DAY_MS;
  const maxKeys = options.maxKeys ?? 10_000;
  const local = new Map<string, number>();
  const window = () => Math.floor(now() / windowMs);
  // The window is part of the key: past windows' counters are never read again (and expire in Redis).
  const keyOf = (key: string) => `${options.prefix ?? 'queen'}:usage:${windowMs}:${window()}:${key}`;
  const fallback = (error: unknown) =>
    options.onRedisError?.(error instanceof Error ? error : new Error(String(error)));

  const localUsed = (key: string) => local.get(key) ?? 0;
  const localCharge = (key: string, amount: number) => {
    const total = Math.max(0, localUsed(key) + amount);
    local.delete(key);
    local.set(key, total);
    if (local.size > maxKeys) {
      // Keys of past windows go first as they are the oldest; then the least recently charged.
      local.delete(local.keys().next().value as string);
    }
    return total;
  };

  async function used(key: string): Promise<number> {
    const full = keyOf(key);
    if (options.redis) {
      try {
        return Math.max(0, Number((await options.redis.get(full)) ?? 0));
      } catch (error) {
        fallback(error);
      }
    }
    return localUsed(full);
  }

  return {
    used,
    async charge(key, amount) {
      const full = keyOf(key);
      if (!Number.isFinite(amount) || amount === 0) return used(key);
      if (options.redis) {
        try {
          const answers = await options.redis
            .multi()
            .incrby(full, Math.round(amount))
            .pexpireat(full, (window() + 2) * windowMs)
            .exec();
          return Math.max(0, Number(answers?.[0]?.[1] ?? 0));
        } catch (error) {
          fallback(error);
        }
      }
      return localCharge(full, amount);
    },
    secondsToReset: () => Math.max(1, Math.ceil(((window() + 1) * windowMs - now()) / 1000)),
  };
}
