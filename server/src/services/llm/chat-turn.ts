// One streamed chat completion with tools, for an agent's turn: the answer's text is handed over as it
// grows, tool calls are assembled from their deltas, and usage comes from the last chunk (or is
// estimated). A provider that answers without streaming (plain JSON) is read the same way. Bounded: the
// body by MAX_PROVIDER_ANSWER_BYTES, the tool calls by MAX_TOOL_CALLS, the time by the provider timeout.
import { OutboundLimitError, UpstreamError } from '../../lib/errors';
import { estimateTokens, MAX_PROVIDER_ANSWER_BYTES, type TokenUsage } from './provider-limits';

/** MAX_TOOL_CALLS bounds the tool calls one answer may make; MAX_ARGUMENTS_CHARS one call's arguments. */
export const MAX_TOOL_CALLS = 16;
export const MAX_ARGUMENTS_CHARS = 64 * 1024;

/** ToolCallRequest is one function call the model asks for (OpenAI's wire shape). */
export interface ToolCallRequest {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** TurnMessage is one message of a conversation as the model reads it, tool calls and results included. */
export type TurnMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCallRequest[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/** ToolSpec is one tool the model may call: a name, what it does and its parameters' JSON schema. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: object;
}

export interface TurnRequest {
  model: string;
  messages: TurnMessage[];
  tools: ToolSpec[];
  signal?: AbortSignal | undefined;
}

export interface TurnAnswer {
  content: string;
  toolCalls: { id: string; name: string; arguments: string }[];
  usage: TokenUsage;
}

export interface ChatTurnOptions {
  baseUrl: string;
  apiKey?: string | undefined;
  timeoutMs: number;
  onFailure?: (detail: { status?: number; message: string }) => void;
}

type Json = Record<string, unknown>;
const record = (value: unknown): Json | null =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : null;
const tokens = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : null;

/** TurnAssembler gathers a streamed (or whole) answer: text, tool calls by index, usage. */
class TurnAssembler {
  content = '';
  usage: TokenUsage | null = null;
  private readonly calls: { id: string; name: string; arguments: string }[] = [];

  constructor(private readonly onText: (text: string) => void) {}

  /** add takes one chunk's (or the whole answer's) choice and usage. */
  add(body: unknown, whole: boolean): void {
    const value = record(body);
    const choice = record(Array.isArray(value?.choices) ? value.choices[0] : null);
    const part = record(whole ? choice?.message : choice?.delta);
    const usage = record(value?.usage);
    if (usage) {
      this.usage = {
        prompt_tokens: tokens(usage.prompt_tokens) ?? 0,
        completion_tokens: tokens(usage.completion_tokens) ?? 0,
      };
    }
    if (!part) return;
    if (typeof part.content === 'string' && part.content.length > 0) {
      this.content += part.content;
      this.onText(this.content);
    }
    if (Array.isArray(part.tool_calls)) {
      part.tool_calls.forEach((raw, position) => this.addCall(record(raw), position));
    }
  }

  private addCall(delta: Json | null, position: number): void {
    if (!delta) return;
    const index = tokens(delta.index) ?? position;
    if (index >= MAX_TOOL_CALLS)
      throw new UpstreamError(`The model asked for more than ${MAX_TOOL_CALLS} tool calls`);
    const call = (this.calls[index] ??= { id: '', name: '', arguments: '' });
    const fn = record(delta.function);
    if (typeof delta.id === 'string') call.id = delta.id.slice(0, 200);
    if (typeof fn?.name === 'string') call.name = (call.name + fn.name).slice(0, 200);
    if (typeof fn?.arguments === 'string') call.arguments += fn.arguments;
    if (call.arguments.length > MAX_ARGUMENTS_CHARS) {
      throw new UpstreamError(`A tool call's arguments are longer than ${MAX_ARGUMENTS_CHARS} characters`);
    }
  }

  answer(promptText: string): TurnAnswer {
    const toolCalls = this.calls
      .filter((call) => call.name.length > 0)
      .map((call, index) => ({ ...call, id: call.id || `call_${index + 1}` }));
    return {
      content: this.content,
      toolCalls,
      usage: this.usage ?? {
        prompt_tokens: estimateTokens(promptText),
        completion_tokens: estimateTokens(this.content + toolCalls.map((call) => call.arguments).join('')),
      },
    };
  }
}

/** readSse hands each `data:` payload of an event stream to onData until `[DONE]` or the end. */
async function readSse(body: ReadableStream<Uint8Array>, onData: (data: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  let buffered = '';
  let bytes = 0;
  for await (const chunk of body) {
    bytes += chunk.byteLength;
    if (bytes > MAX_PROVIDER_ANSWER_BYTES) throw new UpstreamError("The LLM provider's answer is too large");
    buffered += decoder.decode(chunk, { stream: true });
    let newline = buffered.indexOf('\n');
    while (newline >= 0) {
      const line = buffered.slice(0, newline).replace(/\r$/, '');
      buffered = buffered.slice(newline + 1);
      if (line.startsWith('data:')) {
        const data = line.slice(5).trim();
        if (data === '[DONE]') return;
        if (data.length > 0) onData(data);
      }
      newline = buffered.indexOf('\n');
    }
  }
}

/** createChatTurn returns the streamed chat call on the provider at options.baseUrl. */
export function createChatTurn(options: ChatTurnOptions) {
  const scrub = (text: string) =>
    (options.apiKey ? text.split(options.apiKey).join('[key]') : text).slice(0, 500);

  return async function chatTurn(request: TurnRequest, onText: (text: string) => void): Promise<TurnAnswer> {
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signal = request.signal ? AbortSignal.any([timeout, request.signal]) : timeout;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'text/event-stream',
    };
    if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
    const payload: Json = {
      model: request.model,
      messages: request.messages,
      stream: true,
      stream_options: { include_usage: true },
    };
    if (request.tools.length > 0) {
      payload.tools = request.tools.map((tool) => ({ type: 'function', function: tool }));
    }
    const assembler = new TurnAssembler(onText);
    try {
      const response = await fetch(`${options.baseUrl}/chat/completions`, {
        method: 'POST',
        headers,
        body: JSON.stringify(payload),
        signal,
      });
      if (!response.ok || !response.body) {
        const text = await response.text().catch(() => '');
        options.onFailure?.({ status: response.status, message: scrub(text) });
        throw new UpstreamError(`The LLM provider failed (HTTP ${response.status})`);
      }
      if ((response.headers.get('content-type') ?? '').includes('text/event-stream')) {
        await readSse(response.body, (data) => {
          let chunk: unknown;
          try {
            chunk = JSON.parse(data);
          } catch {
            throw new UpstreamError('The LLM provider streamed something that is not JSON');
          }
          assembler.add(chunk, false);
        });
      } else {
        const text = await response.text();
        if (text.length > MAX_PROVIDER_ANSWER_BYTES)
          throw new UpstreamError("The LLM provider's answer is too large");
        let whole: unknown;
        try {
          whole = JSON.parse(text);
        } catch {
          throw new UpstreamError('The LLM provider answered something that is not JSON');
        }
        assembler.add(whole, true);
      }
    } catch (error) {
      if (error instanceof UpstreamError) throw error;
      if (timeout.aborted) {
        throw new OutboundLimitError(
          `The LLM provider did not answer within ${options.timeoutMs} ms (LLM_TIMEOUT_MS)`,
          'timeout',
        );
      }
      if (request.signal?.aborted) throw error;
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : '';
      options.onFailure?.({ message: scrub(`unreachable: ${cause || String(error)}`) });
      throw new UpstreamError('The LLM provider could not be reached');
    }
    return assembler.answer(JSON.stringify(request.messages));
  };
}

export type ChatTurn = ReturnType<typeof createChatTurn>;
