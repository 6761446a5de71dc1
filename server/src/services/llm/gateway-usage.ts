// What an AI gateway call spent, for the budget and the usage rows: the provider's `usage` when it reports
// one (a completion's body, or a stream's last chunk: the gateway asks for it with
// `stream_options.include_usage`), else estimated from the text as InvokeLLM's are (estimateTokens).
import { z } from 'zod';
import { estimateTokens, type TokenUsage } from './llm-provider';

const Count = z.number().nonnegative().transform(Math.round);
const ReportedUsage = z.object({ prompt_tokens: Count, completion_tokens: Count });
const TextPiece = z.object({ content: z.unknown(), refusal: z.unknown(), tool_calls: z.unknown() }).partial();
const Chunk = z.object({
  choices: z.array(z.object({ delta: TextPiece.optional(), message: TextPiece.optional() })).optional(),
  usage: z.unknown().optional(),
});

const reportedOf = (value: unknown): TokenUsage | null => {
  const usage = ReportedUsage.safeParse(value);
  return usage.success ? usage.data : null;
};

/** textOf is the text of a message or a delta: content (a string, or its text parts), refusal, tool arguments. */
function textOf(piece: z.infer<typeof TextPiece> | undefined): string {
  if (!piece) return '';
  const texts: string[] = [];
  const add = (value: unknown) => {
    if (typeof value === 'string') texts.push(value);
  };
  add(piece.content);
  if (Array.isArray(piece.content)) {
    for (const part of piece.content) add((part as { text?: unknown } | null)?.text);
  }
  add(piece.refusal);
  if (Array.isArray(piece.tool_calls)) {
    for (const call of piece.tool_calls) {
      add((call as { function?: { arguments?: unknown } } | null)?.function?.arguments);
    }
  }
  return texts.join('');
}

/** promptTextOf is what the caller's messages say, for an estimate (images and other parts left out). */
export function promptTextOf(messages: readonly { content?: unknown }[]): string {
  return messages.map((message) => textOf({ content: message.content })).join('\n');
}

/** completionUsage is what a chat completion's body (already parsed) spent. */
export function completionUsage(body: unknown, promptText: string): TokenUsage {
  const parsed = Chunk.safeParse(body);
  const reported = parsed.success ? reportedOf(parsed.data.usage) : null;
  if (reported) return reported;
  const choices = parsed.success ? (parsed.data.choices ?? []) : [];
  return {
    prompt_tokens: estimateTokens(promptText),
    completion_tokens: estimateTokens(choices.map((choice) => textOf(choice.message)).join('')),
  };
}

/** StreamUsage follows a stream's chunks: see one event's data, then total what the stream spent. */
export interface StreamUsage {
  /**
   * see reads one event's data and says whether it is a usage-only chunk (`choices: []` with `usage`: what
   * include_usage adds, which a caller that did not ask for it does not expect).
   */
  see(data: string): { usageOnly: boolean };
  /** total is the reported usage, else the estimate of the prompt and of the text streamed so far. */
  total(): TokenUsage;
}

/** createStreamUsage follows one stream of a call whose prompt says promptText. */
export function createStreamUsage(promptText: string): StreamUsage {
  let reported: TokenUsage | null = null;
  const streamed: string[] = [];
  return {
    see(data) {
      // `[DONE]` and anything that is not a chunk are passed on without being counted.
      if (!data.startsWith('{')) return { usageOnly: false };
      let value: unknown;
      try {
        value = JSON.parse(data);
      } catch {
        return { usageOnly: false };
      }
      const chunk = Chunk.safeParse(value);
      if (!chunk.success) return { usageOnly: false };
      const usage = reportedOf(chunk.data.usage);
      if (usage) reported = usage;
      const choices = chunk.data.choices ?? [];
      for (const choice of choices) streamed.push(textOf(choice.delta));
      return { usageOnly: usage !== null && choices.length === 0 };
    },
    total() {
      return (
        reported ?? {
          prompt_tokens: estimateTokens(promptText),
          completion_tokens: estimateTokens(streamed.join('')),
        }
      );
    },
  };
}
