// Each `$regex` in an entity query reads values the guard bounds one by one (entity-regex-guard.ts), but a
// caller repeating admitted regex queries can still keep the database scanning for everyone (issue 18,
// item 5: one anonymous client repeating a 4-regex `$or` over 2,000 rows of 64 KB made PGlite time out
// again and again). So the time a caller's requests holding a `$regex` take is counted, per minute, against
// a budget: the user's, or the IP's when anonymous; the service role (the app's own backend) has none. A
// request is admitted while the budget is not spent, and charged its duration when it ends.
// Requests also take turns: one at a time per caller, and a few at a time across callers (createRegexBudget).
// Parallel requests would all pass the budget before any was charged, and on the embedded database they
// would queue scan after scan ahead of every other caller's reads. Turns are kept in this process.
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

/** Turns lets `capacity` holders of a key run at once, with at most `maxWaiting` queued behind them. */
function createTurns(capacity: number, maxWaiting: number, refusal: () => TooManyRequestsError) {
  // A key is present while one of its requests runs: how many run, and the ones waiting, in order.
  const keys = new Map<string, { running: number; waiting: Array<() => void> }>();
  return {
    async enter(key: string): Promise<void> {
      const state = keys.get(key) ?? { running: 0, waiting: [] };
      keys.set(key, state);
      if (state.running < capacity) {
        state.running += 1;
        return;
      }
      if (state.waiting.length >= maxWaiting) throw refusal();
      // The one leaving hands its place over: running stays counted.
      await new Promise<void>((resolve) => state.waiting.push(resolve));
    },
    leave(key: string): void {
      const state = keys.get(key);
      if (!state) return;
      const next = state.waiting.shift();
      if (next) return next();
      state.running -= 1;
      if (state.running === 0) keys.delete(key);
    },
  };
}

/** RegexBudget admits regex queries while the caller has scan time left, one at a time per caller. */
export interface RegexBudget {
  /** admit waits for its turns and returns the scan to charge (null for the service role), or throws 429. */
  admit(appId: string, caller: Caller, ip: string): Promise<RegexScan | null>;
  /** finish ends an admitted request's turns and counts its duration against its budget. */
  finish(scan: RegexScan): Promise<void>;
}

/** MAX_WAITING_SERVER_WIDE is how many regex requests may wait for a server-wide turn. */
const MAX_WAITING_SERVER_WIDE = 256;
const SERVER_WIDE = 'all';

/**
 * createRegexBudget admits regex queries while the caller has scan time left this minute (msPerMinute),
 * one at a time per caller and `atOnce` at a time across callers: many callers each within their budget
 * (12 addresses on PostgreSQL) could otherwise hold every pooled connection at once.
 */
export function createRegexBudget(
  counter: UsageCounter,
  msPerMinute: number,
  now = () => performance.now(),
  atOnce = 1,
): RegexBudget {
  const perCaller = createTurns(
    1,
    MAX_WAITING,
    () =>
      new TooManyRequestsError(
        `Your $regex queries run one at a time and ${MAX_WAITING} are already waiting: send the next when one has answered`,
        1,
      ),
  );
  const serverWide = createTurns(
    atOnce,
    MAX_WAITING_SERVER_WIDE,
    () =>
      new TooManyRequestsError('The server is busy with other $regex queries: try again in a few seconds', 5),
  );
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
     * admit waits for the caller's turn, then a server-wide one, and returns the scan to charge (null for
     * the service role); it throws 429 once the budget is spent or too many requests wait. Every scan it
     * returns must be given to finish.
     */
    async admit(appId: string, caller: Caller, ip: string): Promise<RegexScan | null> {
      if (caller.kind === 'service') return null;
      const key = `regex-scan:${appId}:${caller.kind === 'user' ? `user:${caller.user.id}` : `ip:${ip}`}`;
      await refuseWhenSpent(key);
      await perCaller.enter(key);
      try {
        await serverWide.enter(SERVER_WIDE);
      } catch (error) {
        perCaller.leave(key);
        throw error;
      }
      try {
        await refuseWhenSpent(key); // the requests it waited for may have spent it
      } catch (error) {
        serverWide.leave(SERVER_WIDE);
        perCaller.leave(key);
        throw error;
      }
      return { key, startedMs: now() };
    },
    /** finish ends an admitted request's turns and counts its duration against its budget. */
    async finish(scan: RegexScan): Promise<void> {
      serverWide.leave(SERVER_WIDE);
      perCaller.leave(scan.key);
      await counter.charge(scan.key, Math.max(1, now() - scan.startedMs));
    },
  };
}
