// The daily token budget per app (LLM_DAILY_TOKEN_BUDGET) and the usage it is counted from. The database is
// the truth every instance shares; usage rows are written in batches (a call never waits for the
// database, like page views), and each instance keeps the day's total in memory: its own calls added as
// they end, the sum re-read every couple of seconds (other instances' calls), plus what it has not
// written yet. A check costs no query on the hot path; a call started under the budget may end over it.
import { TooManyRequestsError } from '../../lib/errors';
import type { LlmUsageEntry, LlmUsageStore } from '../../store/llm-usage-store';
import { createBatchWriter } from '../app-logs/batch-writer';

const DAY_MS = 86_400_000;

export interface TokenBudgetOptions {
  store: Pick<LlmUsageStore, 'insertBatch' | 'tokensSince'>;
  dailyTokens: number;
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

  return {
    /** check throws TooManyRequestsError (Retry-After: the next UTC midnight) once appId spent its budget. */
    async check(appId: string): Promise<void> {
      const { tokens, dayStart } = await spentToday(appId);
      if (tokens < options.dailyTokens) return;
      const retryAfter = Math.max(1, Math.ceil((dayStart + DAY_MS - now()) / 1000));
      throw new TooManyRequestsError(
        `This app has used its daily LLM token budget (${options.dailyTokens} tokens, LLM_DAILY_TOKEN_BUDGET): try again after midnight UTC, in ${retryAfter} s`,
        retryAfter,
      );
    },
    /** record counts one call against today's budget at once and queues its usage row. */
    record(appId: string, entry: LlmUsageEntry): void {
      unwritten.set(appId, (unwritten.get(appId) ?? 0) + tokensOf(entry));
      writer.add({ ...entry, app_id: appId, created_at: new Date(now()).toISOString() });
    },
    /** flush writes every queued usage row (before the operator reads them; at close). */
    flush: () => writer.flush(),
    close: () => writer.close(),
  };
}

export type TokenBudget = ReturnType<typeof createTokenBudget>;
