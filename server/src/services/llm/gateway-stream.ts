// A streamed chat completion of the AI gateway, relayed event by event as the provider sends it (bounded by
// the provider client's bytes and deadline, and by sse-lines.ts per event). Usage is read on the way; the
// usage-only chunk the gateway asked for is kept only for a caller that asked for it too. A failure after
// the first byte cannot change the status any more: it ends the stream with an OpenAI error event, which
// OpenAI's clients throw as an APIError.
import { OutboundLimitError, UpstreamError } from '../../lib/errors';
import { createStreamUsage, type StreamUsage } from './gateway-usage';
import type { TokenUsage } from './llm-provider';
import type { ForwardedAnswer } from './provider-forward';
import { createSseReader } from './sse-lines';

export interface RelayOptions {
  /** promptText is what the caller's messages say, for an estimate when the provider reports no usage. */
  promptText: string;
  /** keepUsageChunk passes the usage-only chunk on (the caller asked for `include_usage`). */
  keepUsageChunk: boolean;
  /** signal is the client going away: the call ends then, whether or not the stream was read. */
  signal: AbortSignal;
  /** finish is called once, however the stream ends, with what it spent. */
  finish: (usage: TokenUsage) => void;
  log: { warn(fields: object, message: string): void };
}

/** requireEventStream refuses (and drops) a 2xx answer to a streamed call that is not a stream. */
export function requireEventStream(answer: ForwardedAnswer): void {
  if (answer.contentType.toLowerCase().startsWith('text/event-stream')) return;
  answer.cancel();
  throw new UpstreamError('The LLM provider did not answer the streamed call with a stream');
}

/** frameOf is one event as the client gets it (null: left out). */
function frameOf(data: string, usage: StreamUsage, keepUsageChunk: boolean): string | null {
  if (usage.see(data).usageOnly && !keepUsageChunk) return null;
  return `${data
    .split('\n')
    .map((line) => `data: ${line}`)
    .join('\n')}\n\n`;
}

/** errorEvent is a safe OpenAI error event for what broke the stream. */
function errorEvent(error: unknown): string {
  const known = error instanceof UpstreamError || error instanceof OutboundLimitError;
  const message = known ? error.message : "The LLM provider's stream failed";
  return `data: ${JSON.stringify({ error: { message, type: 'server_error', code: null } })}\n\n`;
}

/** relayStream relays answer's events to the client; see the file comment. */
export function relayStream(
  answer: ForwardedAnswer,
  options: RelayOptions,
): { kind: 'events'; events: AsyncIterable<string> } {
  const usage = createStreamUsage(options.promptText);
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    options.finish(usage.total());
  };
  // A client gone before the stream is read still ends the call (the generator would never run).
  options.signal.addEventListener('abort', finish, { once: true });
  if (options.signal.aborted) finish();

  async function* events(): AsyncGenerator<string> {
    const reader = createSseReader();
    try {
      for await (const chunk of answer.body) {
        for (const data of reader.push(chunk)) {
          const frame = frameOf(data, usage, options.keepUsageChunk);
          if (frame !== null) yield frame;
        }
      }
      for (const data of reader.end()) {
        const frame = frameOf(data, usage, options.keepUsageChunk);
        if (frame !== null) yield frame;
      }
    } catch (error) {
      if (!options.signal.aborted) {
        options.log.warn({ reason: (error as Error).message }, 'AI gateway stream ended early');
        yield errorEvent(error);
      }
    } finally {
      answer.cancel();
      finish();
    }
  }
  return { kind: 'events', events: events() };
}
