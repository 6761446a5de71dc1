import { TooManyRequestsError } from '../../lib/errors';

/** RateLimitDecision says whether one more attempt is allowed and, if not, when to retry. */
export interface RateLimitDecision {
  allowed: boolean;
  retryAfterSeconds: number;
}

/** RateLimiter counts attempts per key; an in-memory one today, a Redis-backed one can replace it. */
export interface RateLimiter {
  hit(key: string, limit: number): Promise<RateLimitDecision>;
}

/**
 * createMemoryRateLimiter returns a fixed-window limiter kept in this process; now is injectable for tests.
 * Expired windows are swept lazily so memory stays bounded by the keys seen in one window.
 */
export function createMemoryRateLimiter(windowMs: number, now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  let lastSweep = now();
  return {
    async hit(key, limit) {
      const time = now();
      if (time - lastSweep > windowMs) {
        for (const [k, w] of windows) if (time - w.start >= windowMs) windows.delete(k);
        lastSweep = time;
      }
      let window = windows.get(key);
      if (!window || time - window.start >= windowMs) {
        window = { start: time, count: 0 };
        windows.set(key, window);
      }
      window.count += 1;
      const retryAfterSeconds = Math.max(1, Math.ceil((window.start + windowMs - time) / 1000));
      return { allowed: window.count <= limit, retryAfterSeconds };
    },
  };
}

/** AuthAction names a throttled sign-in step; each has its own counters. */
export type AuthAction = 'login' | 'register' | 'otp' | 'reset' | 'change-password';

/** AuthThrottleLimits are the attempts allowed per window per IP and per account. */
export interface AuthThrottleLimits {
  perIp: number;
  perAccount: number;
}

/** createAuthThrottle returns a check that throws TooManyRequestsError once an IP or account is over its limit. */
export function createAuthThrottle(limiter: RateLimiter, limits: AuthThrottleLimits) {
  return async function throttle(action: AuthAction, ip: string, account?: string): Promise<void> {
    const byIp = await limiter.hit(`${action}:ip:${ip}`, limits.perIp);
    const byAccount = account
      ? await limiter.hit(`${action}:account:${account.trim().toLowerCase()}`, limits.perAccount)
      : { allowed: true, retryAfterSeconds: 0 };
    if (byIp.allowed && byAccount.allowed) return;
    const retryAfter = Math.max(
      byIp.allowed ? 0 : byIp.retryAfterSeconds,
      byAccount.allowed ? 0 : byAccount.retryAfterSeconds,
    );
    throw new TooManyRequestsError(`Too many attempts: try again in ${retryAfter} s`, retryAfter);
  };
}

export type AuthThrottle = ReturnType<typeof createAuthThrottle>;
