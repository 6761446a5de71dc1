import { describe, expect, it } from 'vitest';
import { TooManyRequestsError } from '../../lib/errors';
import { createRateLimiter, type RateLimiter } from '../limits/rate-limiter';
import { createAuthThrottle } from './auth-throttle';

function countingLimiter(): RateLimiter & { keys: Set<string> } {
  const inner = createRateLimiter();
  const keys = new Set<string>();
  return {
    keys,
    hit(key, limit, windowMs) {
      keys.add(key);
      return inner.hit(key, limit, windowMs);
    },
  };
}

describe('createAuthThrottle', () => {
  it('limits an account per IP, and an IP across accounts', async () => {
    const throttle = createAuthThrottle(createRateLimiter(), { perIp: 4, perAccount: 2, windowMs: 60_000 });
    await throttle('login', '1.1.1.1', 'A@x.com');
    await throttle('login', '1.1.1.1', 'a@x.com');
    await expect(throttle('login', '1.1.1.1', 'a@x.com')).rejects.toBeInstanceOf(TooManyRequestsError);
    await throttle('login', '9.9.9.9', 'b@x.com');
    await throttle('login', '9.9.9.9', 'c@x.com');
    await throttle('login', '9.9.9.9', 'd@x.com');
    await throttle('login', '9.9.9.9', 'e@x.com');
    const error = await throttle('login', '9.9.9.9', 'f@x.com').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TooManyRequestsError);
    expect((error as TooManyRequestsError).retryAfterSeconds).toBe(60);
    await throttle('register', '9.9.9.9', 'f@x.com');
  });

  it('never locks the owner out: failures from other IPs do not count against the owner’s IP', async () => {
    const throttle = createAuthThrottle(createRateLimiter(), { perIp: 100, perAccount: 2, windowMs: 60_000 });
    for (const ip of ['6.6.6.1', '6.6.6.2', '6.6.6.3']) {
      await throttle('login', ip, 'victim@x.com');
      await throttle('login', ip, 'victim@x.com');
      await expect(throttle('login', ip, 'victim@x.com')).rejects.toBeInstanceOf(TooManyRequestsError);
    }
    await expect(throttle('login', '10.0.0.7', 'victim@x.com')).resolves.toBeUndefined();
  });

  it('adds no account counters for an IP already over its limit', async () => {
    const limiter = countingLimiter();
    const throttle = createAuthThrottle(limiter, { perIp: 2, perAccount: 100, windowMs: 60_000 });
    for (let i = 0; i < 1000; i++)
      await throttle('login', '6.6.6.6', `spray-${i}@x.com`).catch(() => undefined);
    // One IP counter and the two accounts tried while the IP was within its limit.
    expect(limiter.keys.size).toBe(3);
  });
});
