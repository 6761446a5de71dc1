import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Redis } from 'ioredis';
import { createRateLimiter } from './rate-limiter';

describe('createRateLimiter (in process)', () => {
  beforeEach(() => vi.useFakeTimers({ now: 0 }));
  afterEach(() => vi.useRealTimers());

  it('allows limit hits per window, then says when to retry', async () => {
    const limiter = createRateLimiter();
    for (let i = 0; i < 3; i++) expect((await limiter.hit('k', 3, 60_000)).allowed).toBe(true);
    vi.setSystemTime(15_000);
    expect(await limiter.hit('k', 3, 60_000)).toEqual({ allowed: false, retryAfterSeconds: 45 });
    expect((await limiter.hit('other', 3, 60_000)).allowed).toBe(true);
    vi.setSystemTime(60_000);
    expect((await limiter.hit('k', 3, 60_000)).allowed).toBe(true);
  });

  it('keeps at most maxKeys counters: the least recently used are forgotten', async () => {
    const limiter = createRateLimiter({ maxKeys: 2 });
    await limiter.hit('a', 1, 60_000);
    await limiter.hit('b', 1, 60_000);
    await limiter.hit('c', 1, 60_000);
    // `a` was evicted, so it starts a fresh window: memory is bounded by maxKeys, not by distinct keys.
    expect((await limiter.hit('a', 1, 60_000)).allowed).toBe(true);
    expect((await limiter.hit('a', 1, 60_000)).allowed).toBe(false);
  });
});

describe('createRateLimiter (Redis)', () => {
  it('falls back to the in-process counters while Redis fails', async () => {
    const failing = {
      rateLimit: (...args: unknown[]) => {
        const callback = args.at(-1) as (error: Error) => void;
        callback(new Error('Connection is closed.'));
      },
      defineCommand: () => undefined,
    } as unknown as Redis;
    const errors: Error[] = [];
    const limiter = createRateLimiter({ redis: failing, onRedisError: (error) => errors.push(error) });
    expect((await limiter.hit('k', 1, 60_000)).allowed).toBe(true);
    expect((await limiter.hit('k', 1, 60_000)).allowed).toBe(false);
    expect(errors).toHaveLength(2);
  });
});
