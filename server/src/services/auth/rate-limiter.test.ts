import { describe, expect, it } from 'vitest';
import { TooManyRequestsError } from '../../lib/errors';
import { createAuthThrottle, createMemoryRateLimiter } from './rate-limiter';

describe('createMemoryRateLimiter', () => {
  it('allows limit hits per window, then says when to retry', async () => {
    let now = 0;
    const limiter = createMemoryRateLimiter(60_000, () => now);
    for (let i = 0; i < 3; i++) expect((await limiter.hit('k', 3)).allowed).toBe(true);
    now = 15_000;
    expect(await limiter.hit('k', 3)).toEqual({ allowed: false, retryAfterSeconds: 45 });
    expect((await limiter.hit('other', 3)).allowed).toBe(true);
    now = 60_000;
    expect((await limiter.hit('k', 3)).allowed).toBe(true);
  });
});

describe('createAuthThrottle', () => {
  it('limits per account across IPs and per IP across accounts', async () => {
    const throttle = createAuthThrottle(
      createMemoryRateLimiter(60_000, () => 0),
      { perIp: 4, perAccount: 2 },
    );
    await throttle('login', '1.1.1.1', 'A@x.com');
    await throttle('login', '2.2.2.2', 'a@x.com');
    await expect(throttle('login', '3.3.3.3', 'a@x.com')).rejects.toBeInstanceOf(TooManyRequestsError);
    await throttle('login', '9.9.9.9', 'b@x.com');
    await throttle('login', '9.9.9.9', 'c@x.com');
    await throttle('login', '9.9.9.9', 'd@x.com');
    await throttle('login', '9.9.9.9', 'e@x.com');
    const error = await throttle('login', '9.9.9.9', 'f@x.com').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TooManyRequestsError);
    expect((error as TooManyRequestsError).retryAfterSeconds).toBe(60);
    await throttle('register', '9.9.9.9', 'f@x.com');
  });
});
