// The daily token budget per app (LLM_DAILY_TOKEN_BUDGET) and the usage it is counted from. The database is
// the truth every instance shares; usage rows are written in batches (a call never waits for the
// database, like page views), and each instance keeps the day's total in memory: its own calls added as
// they end, the sum re-read every couple of seconds (other instances' calls), plus what it has not
// written yet. A check costs no query on the hot path; a call started under the budget may end over it.
import { TooManyRequestsError } from '../../lib/errors';
import type { LlmUsageEntry, LlmUsageStore } from '../../store/llm-usage-store';
import type { Caller } from '../../rules/caller';
import { createBatchWriter } from '../app-logs/batch-writer';
import type { UsageCounter } from '../limits/usage-counter';

const DAY_MS = 86_400_000;
/** MAX_CALLS_IN_FLIGHT bounds the LLM calls one user, or one IP, runs at once. */
export const MAX_CALLS_IN_FLIGHT = 2;
/** MAX_APP_CALLS_IN_FLIGHT bounds the LLM calls an app's users and visitors run at once (per instance). */
export const MAX_APP_CALLS_IN_FLIGHT = 16;

/**
 * TokenShares split the daily budget between callers: a reserve only the service role (the app's own
 * backend) may spend, and what one user and one IP may spend per UTC day (counted in usage).
 */
export interface TokenShares {
  reservePercent: number;
  userDailyTokens: number;
  ipDailyTokens: number;
  usage: UsageCounter;
}

export interface TokenBudgetOptions {
  store: Pick<LlmUsageStore, 'insertBatch' | 'tokensSince'>;
  dailyTokens: number;
  /** shares are the per-caller parts of the budget; without them the app's budget is all there is. */
  shares?: TokenShares | undefined;
  /** refreshMs is how old the in-memory total may grow before the sum is read again. */
  refreshMs?: number;
  /** flushMs is the longest a usage row waits before it is written. */
  flushMs?: number;
  now?: () => number;
  log?: { error(fields: object, message: string): void; warn(fields: object, message: string): void };
}

interface DayTotal {
  dayStart: number;
  /** stored is the day's sum as last read; unwritten is this instance's tokens not yet in the table. */
  stored: number;
  readAt: number;
  reading: Promise<void> | null;
}

type UsageRow = LlmUsageEntry & { app_id: string; created_at: string };

/** createTokenBudget checks and records LLM usage against the daily per-app budget. */
export function createTokenBudget(options: TokenBudgetOptions) {
  const now = options.now ?? Date.now;
  const refreshMs = options.refreshMs ?? 2_000;
  const totals = new Map<string, DayTotal>();
  const unwritten = new Map<string, number>();
  const tokensOf = (row: LlmUsageEntry) => row.prompt_tokens + row.completion_tokens;
  const writer = createBatchWriter<UsageRow>({
    async write(rows) {
      let written = false;
      try {
        await options.store.insertBatch(rows);
        written = true;
      } finally {
        for (const row of rows) {
          unwritten.set(row.app_id, (unwritten.get(row.app_id) ?? 0) - tokensOf(row));
          // Written rows count as stored at once: the last read of the sum may predate them.
          if (written) totalOf(row.app_id).stored += tokensOf(row);
        }
      }
    },
    flushMs: options.flushMs ?? 500,
    maxBatch: 500,
    maxBuffered: 50_000,
    onDropped: (count) => options.log?.warn({ dropped: count }, 'LLM usage buffer full: usage rows dropped'),
    onWriteError: (error, lost) => options.log?.error({ err: error, lost }, 'LLM usage batch write failed'),
  });

  function totalOf(appId: string): DayTotal {
    const dayStart = Math.floor(now() / DAY_MS) * DAY_MS;
    let total = totals.get(appId);
    if (!total || total.dayStart !== dayStart) {
      total = { dayStart, stored: 0, readAt: 0, reading: null };
      totals.set(appId, total);
    }
    return total;
  }

  async function spentToday(appId: string): Promise<{ tokens: number; dayStart: number }> {
    const total = totalOf(appId);
    if (now() - total.readAt >= refreshMs) {
      // One read at a time per app: concurrent calls share it.
      total.reading ??= options.store
        .tokensSince(appId, new Date(total.dayStart))
        .then((tokens) => {
          // A day's sum only grows: a read that started before a batch was written must not undo it.
          total.stored = Math.max(total.stored, tokens);
          total.readAt = now();
        })
        .finally(() => {
          total.reading = null;
        });
      await total.reading;
    }
    return { tokens: total.stored + (unwritten.get(appId) ?? 0), dayStart: total.dayStart };
  }

  const { shares } = options;
  /** inFlight counts the calls running now, per user, IP and app (this instance's). */
  const inFlight = new Map<string, number>();
  const shareKeys = (appId: string, userId: string | null, ip: string | undefined) => ({
    user: userId === null ? null : `llm:${appId}:user:${userId}`,
    ip: ip === undefined ? null : `llm:${appId}:ip:${ip}`,
  });

  return {
    /**
     * check throws TooManyRequestsError (Retry-After: the next UTC midnight) once appId spent its budget,
     * once callers other than the service role reached its reserve, or once caller (or its IP) spent its share.
     */
    async check(appId: string, caller: Caller, ip?: string): Promise<void> {
      const { tokens, dayStart } = await spentToday(appId);
      const retryAfter = Math.max(1, Math.ceil((dayStart + DAY_MS - now()) / 1000));
      const refuse = (what: string) =>
        new TooManyRequestsError(`${what}: try again after midnight UTC, in ${retryAfter} s`, retryAfter);
      if (tokens >= options.dailyTokens) {
        throw refuse(
          `This app has used its daily LLM token budget (${options.dailyTokens} tokens, LLM_DAILY_TOKEN_BUDGET)`,
        );
      }
      if (!shares || caller.kind === 'service') return;
      const open = Math.floor((options.dailyTokens * (100 - shares.reservePercent)) / 100);
      if (tokens >= open) {
        throw refuse(
          `This app's users have used their part of its daily LLM tokens (the rest is kept for the app's backend: LLM_SERVICE_RESERVE_PERCENT)`,
        );
      }
      const keys = shareKeys(appId, caller.kind === 'user' ? caller.user.id : null, ip);
      if (keys.user && (await shares.usage.used(keys.user)) >= shares.userDailyTokens) {
        throw refuse(
          `You have used your share of this app's LLM tokens today (${shares.userDailyTokens} tokens, LLM_USER_DAILY_TOKENS)`,
        );
      }
      if (keys.ip && (await shares.usage.used(keys.ip)) >= shares.ipDailyTokens) {
        throw refuse(
          `Your network address has used its share of this app's LLM tokens today (${shares.ipDailyTokens} tokens, LLM_IP_DAILY_TOKENS)`,
        );
      }
    },
    /**
     * enter counts a call of caller (or its IP) as running until the returned release: usage is known only
     * when a call ends, so calls sent side by side would all pass a check made before any of them is
     * charged. At most MAX_CALLS_IN_FLIGHT per user or IP and MAX_APP_CALLS_IN_FLIGHT per app run at once
     * (429 beyond); the service role is not counted.
     */
    enter(appId: string, caller: Caller, ip?: string): () => void {
      if (caller.kind === 'service') return () => undefined;
      const keys = [
        caller.kind === 'user' ? `user:${appId}:${caller.user.id}` : null,
        ip === undefined ? null : `ip:${appId}:${ip}`,
      ].filter((key): key is string => key !== null);
      const appKey = `app:${appId}`;
      const busy = keys.some((key) => (inFlight.get(key) ?? 0) >= MAX_CALLS_IN_FLIGHT);
      if (busy || (inFlight.get(appKey) ?? 0) >= MAX_APP_CALLS_IN_FLIGHT) {
        throw new TooManyRequestsError(
          busy
            ? `You already have ${MAX_CALLS_IN_FLIGHT} LLM calls running: wait for one to end`
            : "This app's users already have many LLM calls running: try again in a moment",
          1,
        );
      }
      for (const key of [...keys, appKey]) inFlight.set(key, (inFlight.get(key) ?? 0) + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        for (const key of [...keys, appKey]) {
          const left = (inFlight.get(key) ?? 1) - 1;
          if (left > 0) inFlight.set(key, left);
          else inFlight.delete(key);
        }
      };
    },
    /** record counts one call against today's budget and the caller's shares at once, and queues its row. */
    record(appId: string, entry: LlmUsageEntry, ip?: string): void {
      unwritten.set(appId, (unwritten.get(appId) ?? 0) + tokensOf(entry));
      writer.add({ ...entry, app_id: appId, created_at: new Date(now()).toISOString() });
      if (!shares || entry.caller_kind === 'service') return;
      const keys = shareKeys(appId, entry.user_id, ip);
      // Counted off the call's path: a share read a moment late lets one more call through, no more.
      for (const key of [keys.user, keys.ip]) {
        if (key) void shares.usage.charge(key, tokensOf(entry)).catch(() => undefined);
      }
    },
    /** flush writes every queued usage row (before the operator reads them; at close). */
    flush: () => writer.flush(),
    close: () => writer.close(),
  };
}

export type TokenBudget = ReturnType<typeof createTokenBudget>;
