// Who may spend the app's LLM tokens, one place for every LLM door (Core.InvokeLLM and TranscribeAudio,
// extraction's fill, the AI gateway): a provider must be configured (503 naming LLM_PROVIDER_URL), an
// anonymous caller only on a `public_without_login` app, and each call passes the daily budget and its
// caller's shares, and counts as in flight until released.
import { NotConfiguredError } from '../../lib/errors';
import type { Caller } from '../../rules/caller';
import { requireSignInUnlessOpen } from '../identity/app-access';
import type { TokenBudget } from './token-budget';

export const NOT_CONFIGURED =
  'No LLM provider configured: set LLM_PROVIDER_URL to an OpenAI-compatible base URL (e.g. http://localhost:11434/v1 for Ollama) and optionally LLM_API_KEY and LLM_MODEL';

export interface LlmAdmissionDeps<P> {
  /** provider is absent when LLM_PROVIDER_URL is not set: every call is then a 503 naming it. */
  provider: P | null;
  budget: Pick<TokenBudget, 'check' | 'enter'>;
  visibilityOf: (appId: string) => Promise<string>;
}

/** LlmAdmission admits callers to the provider P (the chat client, or the gateway's pass-through). */
export interface LlmAdmission<P> {
  /** requireProvider throws the 503 naming LLM_PROVIDER_URL when no provider is set. */
  requireProvider(): P;
  /** admitCaller checks the provider and the caller's right, without spending anything (a model list). */
  admitCaller(appId: string, caller: Caller, integration: string): Promise<P>;
  /** admit is admitCaller plus the token budgets; release ends the call's in-flight count. */
  admit(
    appId: string,
    caller: Caller,
    integration: string,
    ip: string | undefined,
  ): Promise<{ provider: P; release: () => void }>;
}

/** createLlmAdmission builds the guards on the provider (or none), the budget and the app's visibility. */
export function createLlmAdmission<P>(deps: LlmAdmissionDeps<P>): LlmAdmission<P> {
  function requireProvider(): P {
    if (!deps.provider) throw new NotConfiguredError(NOT_CONFIGURED);
    return deps.provider;
  }

  async function admitCaller(appId: string, caller: Caller, integration: string): Promise<P> {
    const provider = requireProvider();
    if (caller.kind === 'anonymous') {
      requireSignInUnlessOpen(
        await deps.visibilityOf(appId),
        caller,
        `${integration} needs a signed-in user on this app: sign in first`,
      );
    }
    return provider;
  }

  return {
    requireProvider,
    admitCaller,
    async admit(appId, caller, integration, ip) {
      const provider = await admitCaller(appId, caller, integration);
      await deps.budget.check(appId, caller, ip);
      return { provider, release: deps.budget.enter(appId, caller, ip) };
    },
  };
}
