// What every call to the provider shares: the usage it reports, the bound on its answer, and the estimate
// for providers that report no usage.

/** TokenUsage is what one call spent, as the provider reports it (estimated when it reports none). */
export interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
}

/**
 * MAX_PROVIDER_ANSWER_BYTES bounds a chat completion's body: a model's answer is bounded after it is read
 * (answer-bounds.ts), and this bounds what reading it may hold in memory.
 */
export const MAX_PROVIDER_ANSWER_BYTES = 8 * 1024 * 1024;

/** estimateTokens is the usual four characters per token, for providers that report no usage. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
