// Each `$regex` in an entity query reads values the guard bounds one by one (entity-regex-guard.ts), but a
// caller repeating admitted regex queries can still keep the database scanning for everyone (issue 18,
// item 5: one anonymous client repeating a 4-regex `$or` over 2,000 rows of 64 KB made PGlite time out
// again and again). So the time a caller's requests holding a `$regex` take is counted, per minute, against
// a budget: the user's, or the IP's when anonymous; the service role (the app's own backend) has none. A
// request is admitted while the budget is not spent, and charged its duration when it ends.
import { TooManyRequestsError } from '../../lib/errors';
import type { Caller } from '../../rules/caller';
import type { UsageCounter } from './usage-counter';

/** MAX_WALK bounds the parts of a body searched for `$regex` (bodies are already bounded in size). */
const MAX_WALK = 10_000;

/**
 * holdsRegex says whether a parsed query or body names `$regex` anywhere (parsed: `\u0024regex` in the
 * text is `$regex` too). A value too large to search all of is taken to hold one.
 */
export function holdsRegex(value: unknown): boolean {
  let seen = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    if (seen++ >= MAX_WALK) return true;
    const next = stack.pop();
    if (typeof next !== 'object' || next === null) continue;
    for (const [key, child] of Object.entries(next)) {
      if (key === '$regex') return true;
      if (typeof child === 'object' && child !== null) stack.push(child);
    }
  }
  return false;
}

/**
 * MAX_WAITING is how many of a caller's regex requests may wait for its running one; more get a 429.
 * Generous, as an IP may be a whole office behind one address: a waiting request holds only a promise.
 */
export const MAX_WAITING = 16;

/** RegexScan is an admitted request's charge: whose budget it spends and when it began. */
export interface RegexScan {
  key: string;
  startedMs: number;
}

/** createTurns lets one holder of a key run at a time, with at most MAX_WAITING queued behind it. */
function createTurns() {
  // A key is present while one of its requests runs; its array holds the ones waiting, in order.
  const queues = new Map<string, Array<() => void>>();
  return {
    async enter(key: string): Promise<void> {
      const waiting = queues.get(key);
      if (!waiting) {
        queues.set(key, []);
        return;
      }
      if (waiting.length >= MAX_WAITING) {
        throw new TooManyRequestsError(
          `Your $regex queries run one at a time and ${MAX_WAITING} are already waiting: send the next when one has answered`,
          1,
        );
      }
      await new Promise<void>((resolve) => waiting.push(resolve));
    },
    leave(key: string): void {
      const next = queues.get(key)?.shift();
      if (next) next();
      else queues.delete(key);
    },
  };
}

/** createRegexBudget admits regex queries while the caller has scan time left this minute (msPerMinute). */
export function createRegexBudget(counter: UsageCounter, msPerMinute: number, now = () => performance.now()) {
  const turns = createTurns();
  const refuseWhenSpent = async (key: string) => {
    if ((await counter.used(key)) < msPerMinute) return;
    const retryAfter = counter.secondsToReset();
    throw new TooManyRequestsError(
      `Your $regex queries have used their ${msPerMinute / 1000} s of database time this minute (ENTITY_REGEX_SCAN_MS_PER_MINUTE): try again in ${retryAfter} s, or filter by exact values`,
      retryAfter,
    );
  };
  return {
    /**
     * admit waits for the caller's turn and returns the scan to charge (null for the service role); it
     * throws 429 once the budget is spent or too many of the caller's regex requests wait. Every scan it
     * returns must be given to finish.
     */
    async admit(appId: string, caller: Caller, ip: string): Promise<RegexScan | null> {
      if (caller.kind === 'service') return null;
      const key = `regex-scan:${appId}:${caller.kind === 'user' ? `user:${caller.user.id}` : `ip:${ip}`}`;
      await refuseWhenSpent(key);
      await turns.enter(key);
      try {
        await refuseWhenSpent(key); // the requests it waited for may have spent it
      } catch (error) {
        turns.leave(key);
        throw error;
      }
      return { key, startedMs: now() };
    },
    /** finish ends an admitted request's turn and counts its duration against its budget. */
    async finish(scan: RegexScan): Promise<void> {
      turns.leave(scan.key);
      await counter.charge(scan.key, Math.max(1, now() - scan.startedMs));
    },
  };
}

export type RegexBudget = ReturnType<typeof createRegexBudget>;
