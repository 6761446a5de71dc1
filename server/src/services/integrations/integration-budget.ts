import { TooManyRequestsError } from '../../lib/errors';
import type { RateLimiter } from '../limits/rate-limiter';
import type { Caller } from '../../rules/caller';

/** IntegrationBudgetLimits are the integration calls allowed per minute from one IP and by one user. */
export interface IntegrationBudgetLimits {
  perIpPerMinute: number;
  perUserPerMinute: number;
}

/** IntegrationBudget throttles integration calls: every caller per IP, signed-in users also per user. */
export interface IntegrationBudget {
  /** perIp spends one call of ip's budget, or throws TooManyRequestsError. */
  perIp(ip: string): Promise<void>;
  /** perCaller spends one call of a signed-in user's budget in appId, or throws TooManyRequestsError. */
  perCaller(appId: string, caller: Caller): Promise<void>;
}

const MINUTE_MS = 60_000;

/**
 * createIntegrationBudget throttles integration calls (each can cost money at a provider and stores a
 * file): every caller per IP, signed-in users also per user across IPs. The service role is a trusted
 * backend and is only limited per IP. Counters are shared between instances when the limiter is.
 */
export function createIntegrationBudget(
  limiter: RateLimiter,
  limits: IntegrationBudgetLimits,
): IntegrationBudget {
  const refuse = (retryAfter: number) =>
    new TooManyRequestsError(`Too many integration calls: try again in ${retryAfter} s`, retryAfter);
  return {
    /** perIp spends one call of ip's budget, or throws TooManyRequestsError. */
    async perIp(ip: string): Promise<void> {
      const decision = await limiter.hit(`integrations:ip:${ip}`, limits.perIpPerMinute, MINUTE_MS);
      if (!decision.allowed) throw refuse(decision.retryAfterSeconds);
    },
    /** perCaller spends one call of a signed-in user's budget in appId, or throws TooManyRequestsError. */
    async perCaller(appId: string, caller: Caller): Promise<void> {
      if (caller.kind !== 'user') return;
      const key = `integrations:user:${appId}:${caller.user.id}`;
      const decision = await limiter.hit(key, limits.perUserPerMinute, MINUTE_MS);
      if (!decision.allowed) throw refuse(decision.retryAfterSeconds);
    },
  };
}
