// The AI gateway (`aiGateway.connection()` of the SDK): an app's own OpenAI-compatible client calls
// `…/ai/openai/v1/chat/completions` (or `/models`) here, and the call is passed through to the configured
// provider under InvokeLLM's guards: who may call and the token budgets (llm-admission.ts), the model names
// (model-names.ts), usage recorded as `AIGateway`. The provider's key is ours; nothing of the caller's
// request but its body reaches the provider. A stream is relayed as it comes (gateway-stream.ts).
import { UpstreamError } from '../../lib/errors';
import { unsafeJsonReason } from '../../lib/safe-input';
import type { Caller } from '../../rules/caller';
import type { GatewayChatInput } from '../../schemas/ai-gateway';
import { completionUsage, promptTextOf } from './gateway-usage';
import { relayStream, requireEventStream } from './gateway-stream';
import type { LlmAdmission } from './llm-admission';
import { callerFields } from './llm-completion';
import type { TokenUsage } from './llm-provider';
import type { ForwardedAnswer, ForwardingProvider } from './provider-forward';
import type { TokenBudget } from './token-budget';

/** GATEWAY_INTEGRATION is the integration the gateway's usage rows are recorded under. */
export const GATEWAY_INTEGRATION = 'AIGateway';

export interface AiGatewayDeps {
  admission: LlmAdmission<ForwardingProvider>;
  budget: Pick<TokenBudget, 'record'>;
  /** model maps an app's model name ("automatic", `gpt_5`…) to the provider's (model-names.ts). */
  model: (name: string | undefined) => string;
  /** maxOutputTokens caps `max_tokens`: no call asks for more than the app's whole daily budget. */
  maxOutputTokens: number;
  log: { warn(fields: object, message: string): void };
}

/** GatewayCall is where a call comes from: the client's IP, and a signal for the client going away. */
export interface GatewayCall {
  ip: string | undefined;
  signal: AbortSignal;
}

/** GatewayAnswer is the provider's JSON text as it sent it, or a stream's events (each `data: …\n\n`). */
export type GatewayAnswer =
  { kind: 'json'; text: string } | { kind: 'events'; events: AsyncIterable<string> };

export interface AiGateway {
  /** requireProvider throws the 503 naming LLM_PROVIDER_URL when no provider is set. */
  requireProvider(): void;
  /** chat passes a chat completion through, streamed or not. */
  chat(appId: string, caller: Caller, input: GatewayChatInput, call: GatewayCall): Promise<GatewayAnswer>;
  /** models passes the provider's model list through. */
  models(appId: string, caller: Caller, call: GatewayCall): Promise<GatewayAnswer>;
}

/** readJson reads a whole (bounded) answer and checks it is JSON this server may relay. */
async function readJson(answer: ForwardedAnswer): Promise<{ text: string; value: unknown }> {
  const chunks: Buffer[] = [];
  for await (const chunk of answer.body) chunks.push(chunk);
  const text = Buffer.concat(chunks).toString('utf8');
  // JSON.parse nests one call per level: a hostile depth is refused before it is parsed.
  if (unsafeJsonReason(text) === null) {
    try {
      return { text, value: JSON.parse(text) as unknown };
    } catch {
      // told below
    }
  }
  throw new UpstreamError('The LLM provider answered something that is not JSON');
}

/** upstreamBody is the caller's body for the provider: the provider's model, bounded output, usage asked for. */
function upstreamBody(input: GatewayChatInput, model: string, maxOutputTokens: number): string {
  const body: Record<string, unknown> = { ...input, model };
  for (const field of ['max_tokens', 'max_completion_tokens'] as const) {
    const asked = input[field];
    if (typeof asked === 'number') body[field] = Math.min(asked, maxOutputTokens);
  }
  // The stream's last chunk then says what it spent (a provider that ignores this is estimated).
  if (input.stream) body.stream_options = { ...input.stream_options, include_usage: true };
  return JSON.stringify(body);
}

/** createAiGateway builds the gateway on the LLM guards; see the file comment. */
export function createAiGateway(deps: AiGatewayDeps): AiGateway {
  return {
    requireProvider: () => void deps.admission.requireProvider(),

    async chat(appId, caller, input, call) {
      const { provider, release } = await deps.admission.admit(appId, caller, GATEWAY_INTEGRATION, call.ip);
      const model = deps.model(input.model ?? undefined);
      const promptText = promptTextOf(input.messages);
      const record = (usage: TokenUsage) =>
        deps.budget.record(
          appId,
          { integration: GATEWAY_INTEGRATION, model, ...callerFields(caller), ...usage },
          call.ip,
        );
      let streaming = false;
      try {
        const body = upstreamBody(input, model, deps.maxOutputTokens);
        const answer = await provider.forward('/chat/completions', body, call.signal);
        if (input.stream) {
          requireEventStream(answer);
          // From here the stream releases the call and records its usage, however it ends.
          streaming = true;
          return relayStream(answer, {
            promptText,
            keepUsageChunk: input.stream_options?.include_usage === true,
            signal: call.signal,
            finish: (usage) => {
              release();
              record(usage);
            },
            log: deps.log,
          });
        }
        const { text, value } = await readJson(answer);
        record(completionUsage(value, promptText));
        return { kind: 'json', text };
      } finally {
        if (!streaming) release();
      }
    },

    async models(appId, caller, call) {
      const provider = await deps.admission.admitCaller(appId, caller, GATEWAY_INTEGRATION);
      const { text } = await readJson(await provider.forward('/models', undefined, call.signal));
      return { kind: 'json', text };
    },
  };
}
