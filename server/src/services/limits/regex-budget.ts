// Each `$regex` in an entity query reads values the guard bounds one by one (entity-regex-guard.ts), but a
// caller repeating admitted regex queries can still keep the database scanning for everyone (issue 18,
// item 5: one anonymous client made PGlite time out again and again). So queries that hold a `$regex`
// spend a per-minute budget of their caller: the user, or the IP when anonymous; the service role (the
// app's own backend) has none.
import { TooManyRequestsError } from '../../lib/errors';
import type { Caller } from '../../rules/caller';
import type { RateLimiter } from './rate-limiter';

const MINUTE_MS = 60_000;
/** MAX_WALK bounds the parts of a body searched for `$regex` (bodies are already bounded in size). */
const MAX_WALK = 10_000;

/** holdsRegex says whether a query text or a parsed body names `$regex` anywhere. */
export function holdsRegex(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('$regex');
  let seen = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && seen++ < MAX_WALK) {
    const next = stack.pop();
    if (typeof next !== 'object' || next === null) continue;
    for (const [key, child] of Object.entries(next)) {
      if (key === '$regex') return true;
      if (typeof child === 'object' && child !== null) stack.push(child);
    }
  }
  return false;
}

/** createRegexBudget spends one regex query of caller's budget per minute (perMinute). */
export function createRegexBudget(limiter: RateLimiter, perMinute: number) {
  return {
    /** spend counts one query holding `$regex`, or throws TooManyRequestsError (429) past the budget. */
    async spend(appId: string, caller: Caller, ip: string): Promise<void> {
      if (caller.kind === 'service') return;
      const who = caller.kind === 'user' ? `user:${caller.user.id}` : `ip:${ip}`;
      const decision = await limiter.hit(`regex-queries:${appId}:${who}`, perMinute, MINUTE_MS);
      if (!decision.allowed) {
        throw new TooManyRequestsError(
          `Too many $regex queries (${perMinute} a minute, ENTITY_REGEX_QUERIES_PER_MINUTE): try again in ${decision.retryAfterSeconds} s, or filter by exact values`,
          decision.retryAfterSeconds,
        );
      }
    },
  };
}

export type RegexBudget = ReturnType<typeof createRegexBudget>;
