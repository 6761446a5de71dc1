import { TooManyRequestsError } from '../../lib/errors';
import type { RateLimiter } from '../limits/rate-limiter';

/** AuthAction names a throttled sign-in step; each has its own counters. */
export type AuthAction = 'login' | 'register' | 'otp' | 'reset' | 'change-password' | 'provider-sign-in';

/** AuthThrottleLimits are the attempts allowed per window per IP and per account from one IP. */
export interface AuthThrottleLimits {
  perIp: number;
  perAccount: number;
  windowMs: number;
}

/**
 * createAuthThrottle returns a check that throws TooManyRequestsError once an IP, or an account from that
 * IP, is over its limit.
 *
 * The account counter is keyed by account and IP: failing logins for someone else's email from one address
 * never locks the owner out when they sign in from theirs (the per-IP limit bounds how fast any address
 * guesses). An IP already over its limit is refused before its account counter is touched, so an attacker
 * spraying distinct emails adds no counters (the counters are a bounded LRU or Redis keys with a TTL anyway).
 */
export function createAuthThrottle(limiter: RateLimiter, limits: AuthThrottleLimits) {
  const refuse = (retryAfter: number) =>
    new TooManyRequestsError(`Too many attempts: try again in ${retryAfter} s`, retryAfter);
  return async function throttle(action: AuthAction, ip: string, account?: string): Promise<void> {
    const byIp = await limiter.hit(`auth:${action}:ip:${ip}`, limits.perIp, limits.windowMs);
    if (!byIp.allowed) throw refuse(byIp.retryAfterSeconds);
    if (!account) return;
    const key = `auth:${action}:account:${account.trim().toLowerCase()}:ip:${ip}`;
    const byAccount = await limiter.hit(key, limits.perAccount, limits.windowMs);
    if (!byAccount.allowed) throw refuse(byAccount.retryAfterSeconds);
  };
}

export type AuthThrottle = ReturnType<typeof createAuthThrottle>;
