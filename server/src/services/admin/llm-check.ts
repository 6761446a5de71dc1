// The console's "check" of the LLM provider: one chat call asking for a single token, on a short deadline
// of its own, its usage counted against the app's budget like any other call. One check runs at a time
// (clicks while one runs share it, and one that just ended answers those of the next few seconds); the last
// outcome is kept in memory for the page's summary.
import type { LlmUsageEntry } from '../../store/llm-usage-store';
import type { LlmProvider } from '../llm/llm-provider';

/** CHECK_MAX_TOKENS is the answer the check asks for: one token is enough to prove a round trip. */
export const CHECK_MAX_TOKENS = 1;
/** CHECK_TIMEOUT_MS is the check's own deadline (LLM_TIMEOUT_MS may allow minutes). */
export const CHECK_TIMEOUT_MS = 10_000;
/** CHECK_REUSE_MS is how long an outcome answers further checks (a held-down key calls the provider once). */
export const CHECK_REUSE_MS = 5_000;

/** LlmCheckResult is one check's outcome; problem is a safe sentence (never the key or the provider's text). */
export interface LlmCheckResult {
  ok: boolean;
  checked_at: string;
  model: string;
  latency_ms: number;
  tokens: number;
  problem: string | null;
}

export interface LlmCheckDeps {
  appId: string;
  /** provider is a client on the configured provider with CHECK_TIMEOUT_MS as its deadline; null when none. */
  provider: Pick<LlmProvider, 'chat'> | null;
  model: string;
  record: (appId: string, entry: LlmUsageEntry) => void;
  now?: () => number;
}

/** createLlmCheck returns check (one tiny call) and last (the newest outcome, or null before any). */
export function createLlmCheck(deps: LlmCheckDeps) {
  const now = deps.now ?? Date.now;
  let last: LlmCheckResult | null = null;
  let running: Promise<LlmCheckResult> | null = null;

  async function run(provider: Pick<LlmProvider, 'chat'>): Promise<LlmCheckResult> {
    const started = now();
    const outcome = (ok: boolean, tokens: number, problem: string | null): LlmCheckResult => ({
      ok,
      checked_at: new Date(started).toISOString(),
      model: deps.model,
      latency_ms: Math.max(0, Math.round(now() - started)),
      tokens,
      problem,
    });
    try {
      const answer = await provider.chat({
        model: deps.model,
        messages: [{ role: 'user', content: 'Reply with OK.' }],
        maxTokens: CHECK_MAX_TOKENS,
      });
      deps.record(deps.appId, {
        integration: 'ConsoleCheck',
        model: deps.model,
        caller_kind: 'service',
        user_id: null,
        ...answer.usage,
      });
      return outcome(true, answer.usage.prompt_tokens + answer.usage.completion_tokens, null);
    } catch (error) {
      // The provider client's errors are written for callers: they name no key and no provider text.
      return outcome(false, 0, error instanceof Error ? error.message : 'The check failed');
    }
  }

  return {
    /** check calls the provider once (or joins the check already running); null when none is configured. */
    async check(): Promise<LlmCheckResult | null> {
      const { provider } = deps;
      if (!provider) return null;
      if (last && now() - Date.parse(last.checked_at) - last.latency_ms < CHECK_REUSE_MS) return last;
      running ??= run(provider).finally(() => {
        running = null;
      });
      last = await running;
      return last;
    },
    last: () => last,
  };
}

export type LlmCheck = ReturnType<typeof createLlmCheck>;
