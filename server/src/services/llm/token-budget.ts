// The daily token budget per app (LLM_DAILY_TOKEN_BUDGET), counted from the recorded usage: the database
// is the truth every instance shares. Each instance keeps the day's total in memory, adds its own calls
// as they are recorded and re-reads the sum every couple of seconds (other instances' calls), so a check
// costs no query on the hot path. A call started under the budget may end a little over it.
import { TooManyRequestsError } from '../../lib/errors';
import type { LlmUsageEntry, LlmUsageStore } from '../../store/llm-usage-store';

const DAY_MS = 86_400_000;

export interface TokenBudgetOptions {
  store: Pick<LlmUsageStore, 'insert' | 'tokensSince'>;
  dailyTokens: number;
  /** refreshMs is how old the in-memory total may grow before the sum is read again. */
  refreshMs?: number;
  now?: () => number;
}

interface DayTotal {
  dayStart: number;
  tokens: number;
  readAt: number;
  reading: Promise<void> | null;
}

/** createTokenBudget checks and records LLM usage against the daily per-app budget. */
export function createTokenBudget(options: TokenBudgetOptions) {
  const now = options.now ?? Date.now;
  const refreshMs = options.refreshMs ?? 2_000;
  const totals = new Map<string, DayTotal>();

  function totalOf(appId: string): DayTotal {
    const dayStart = Math.floor(now() / DAY_MS) * DAY_MS;
    let total = totals.get(appId);
    if (!total || total.dayStart !== dayStart) {
      total = { dayStart, tokens: 0, readAt: 0, reading: null };
      totals.set(appId, total);
    }
    return total;
  }

  async function fresh(appId: string): Promise<DayTotal> {
    const total = totalOf(appId);
    if (now() - total.readAt < refreshMs) return total;
    // One read at a time per app: concurrent calls share it.
    total.reading ??= options.store
      .tokensSince(appId, new Date(total.dayStart))
      .then((tokens) => {
        total.tokens = tokens;
        total.readAt = now();
      })
      .finally(() => {
        total.reading = null;
      });
    await total.reading;
    return total;
  }

  return {
    /** check throws TooManyRequestsError (Retry-After: the next UTC midnight) once appId spent its budget. */
    async check(appId: string): Promise<void> {
      const total = await fresh(appId);
      if (total.tokens < options.dailyTokens) return;
      const retryAfter = Math.max(1, Math.ceil((total.dayStart + DAY_MS - now()) / 1000));
      throw new TooManyRequestsError(
        `This app has used its daily LLM token budget (${options.dailyTokens} tokens, LLM_DAILY_TOKEN_BUDGET): try again after midnight UTC, in ${retryAfter} s`,
        retryAfter,
      );
    },
    /** record stores one call's usage and counts it against today's budget. */
    async record(appId: string, entry: LlmUsageEntry): Promise<void> {
      totalOf(appId).tokens += entry.prompt_tokens + entry.completion_tokens;
      await options.store.insert(appId, entry);
    },
  };
}

export type TokenBudget = ReturnType<typeof createTokenBudget>;
