// A thin client for an OpenAI-compatible API (OpenAI, Ollama, vLLM, llama.cpp server, OpenRouter…): chat
// completions and audio transcriptions, one deadline each, no retries (a retry would double the cost and
// the wait; apps retry themselves). Failures become safe domain errors: the key and the provider's own
// error text never reach a caller (the text goes to the log, the key scrubbed from it).
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { OutboundLimitError, UpstreamError } from '../../lib/errors';
import { createChatTurn, type ChatTurn } from './chat-turn';
import { estimateTokens, MAX_PROVIDER_ANSWER_BYTES, type TokenUsage } from './provider-limits';

export { estimateTokens, MAX_PROVIDER_ANSWER_BYTES, type TokenUsage } from './provider-limits';
import { forwardTo, type ForwardingProvider } from './provider-forward';

/** ContentPart is one part of a user message: text, or an image as a data URL. */
export type ContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string | ContentPart[];
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  /** jsonSchema asks for structured output (`response_format: {type: 'json_schema'}`). */
  jsonSchema?: object | undefined;
  /** maxTokens caps the answer (`max_tokens`; the console's reachability check asks for one token). */
  maxTokens?: number | undefined;
}

export interface ChatAnswer {
  content: string;
  usage: TokenUsage;
}

export interface TranscriptionRequest {
  model: string;
  bytes: Buffer;
  filename: string;
  contentType: string;
  language?: string | undefined;
  prompt?: string | undefined;
}

/** LlmProvider is the configured provider; `host` is what logs may name (never the key or the path). */
export interface LlmProvider {
  host: string;
  chat(request: ChatRequest): Promise<ChatAnswer>;
  transcribe(request: TranscriptionRequest): Promise<{ text: string; usage: TokenUsage }>;
  /** turn is one streamed chat call with tools (an agent's step: chat-turn.ts). */
  turn: ChatTurn;
}

export interface LlmProviderOptions {
  baseUrl: string;
  apiKey?: string | undefined;
  timeoutMs: number;
  /** onFailure hears what the provider said when it failed (for the log; the key is already scrubbed). */
  onFailure?: (detail: { status?: number; message: string }) => void;
}

/** AnswerTooLarge is a provider body over MAX_PROVIDER_ANSWER_BYTES (told to the caller by post). */
class AnswerTooLarge extends Error {}

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

function tokens(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : null;
}

/** chatAnswerOf reads a chat completion's text and usage; null when the body is not one. */
export function chatAnswerOf(body: unknown, promptText: string): ChatAnswer | null {
  const choices = record(body)?.choices;
  const message = Array.isArray(choices) ? record(record(choices[0])?.message) : null;
  const content = message?.content;
  if (typeof content !== 'string') return null;
  const usage = record(record(body)?.usage);
  return {
    content,
    usage: {
      prompt_tokens: tokens(usage?.prompt_tokens) ?? estimateTokens(promptText),
      completion_tokens: tokens(usage?.completion_tokens) ?? estimateTokens(content),
    },
  };
}

/** createLlmProvider builds the client on baseUrl (`…/v1`); forward is the AI gateway's pass-through. */
export function createLlmProvider(options: LlmProviderOptions): LlmProvider & ForwardingProvider {
  const { baseUrl, apiKey, timeoutMs } = options;
  const scrub = (text: string) => (apiKey ? text.split(apiKey).join('[key]') : text).slice(0, 500);

  // JSON calls go through node:http with kept-alive connections: cheaper per call than fetch, whose
  // web streams cost more CPU than the provider's answer is worth (bench:llm). Forms (audio) use fetch.
  const base = new URL(baseUrl);
  const agent =
    base.protocol === 'https:' ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const send = base.protocol === 'https:' ? httpsRequest : httpRequest;

  function exchange(
    path: string,
    body: string | FormData,
    headers: Record<string, string>,
    signal: AbortSignal,
  ) {
    if (typeof body !== 'string') {
      return fetch(`${baseUrl}${path}`, { method: 'POST', headers, body, signal }).then(async (response) => ({
        status: response.status,
        text: await response.text(),
      }));
    }
    return new Promise<{ status: number; text: string }>((resolve, reject) => {
      const outgoing = send(
        `${baseUrl}${path}`,
        { method: 'POST', agent, signal, headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
        (incoming) => {
          const chunks: Buffer[] = [];
          let bytes = 0;
          incoming.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
            if (bytes > MAX_PROVIDER_ANSWER_BYTES) {
              incoming.destroy();
              reject(new AnswerTooLarge());
            } else chunks.push(chunk);
          });
          incoming.on('end', () =>
            resolve({ status: incoming.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
          );
          incoming.on('error', reject);
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  }

  async function post(path: string, body: string | FormData, json: boolean): Promise<unknown> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (json) headers['content-type'] = 'application/json';
    if (apiKey) headers.authorization = `Bearer ${apiKey}`;
    const signal = AbortSignal.timeout(timeoutMs);
    let response: { status: number; text: string };
    try {
      response = await exchange(path, body, headers, signal);
    } catch (error) {
      if (error instanceof AnswerTooLarge) {
        throw new UpstreamError(
          `The LLM provider's answer is larger than ${MAX_PROVIDER_ANSWER_BYTES / 1024 / 1024} MB`,
        );
      }
      if (signal.aborted) {
        throw new OutboundLimitError(
          `The LLM provider did not answer within ${timeoutMs} ms (LLM_TIMEOUT_MS)`,
          'timeout',
        );
      }
      // NB: connection errors name the host, never the headers, so the key cannot leak through them.
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : '';
      options.onFailure?.({ message: scrub(`unreachable: ${cause || String(error)}`) });
      throw new UpstreamError('The LLM provider could not be reached');
    }
    const { status, text } = response;
    if (status < 200 || status > 299) {
      options.onFailure?.({ status, message: scrub(text) });
      throw new UpstreamError(`The LLM provider failed (HTTP ${status})`);
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      options.onFailure?.({ status, message: scrub(`not JSON: ${text}`) });
      throw new UpstreamError('The LLM provider answered something that is not JSON');
    }
  }

  return {
    host: base.host,
    turn: createChatTurn(options),
    forward: (path, body, signal) =>
      forwardTo(
        { ...options, maxAnswerBytes: MAX_PROVIDER_ANSWER_BYTES, agent, send, scrub },
        path,
        body,
        signal,
      ),
    async chat(request) {
      const payload: Record<string, unknown> = { model: request.model, messages: request.messages };
      if (request.maxTokens !== undefined) payload.max_tokens = request.maxTokens;
      if (request.jsonSchema) {
        // Not strict: apps' schemas rarely meet strict mode's rules (every property required, no extras).
        payload.response_format = {
          type: 'json_schema',
          json_schema: { name: 'response', schema: request.jsonSchema, strict: false },
        };
      }
      const body = await post('/chat/completions', JSON.stringify(payload), true);
      const promptText = request.messages
        .map((message) =>
          typeof message.content === 'string'
            ? message.content
            : message.content.map((part) => (part.type === 'text' ? part.text : '')).join(''),
        )
        .join('\n');
      const answer = chatAnswerOf(body, promptText);
      if (!answer) throw new UpstreamError('The LLM provider answered without a message');
      return answer;
    },
    async transcribe(request) {
      const form = new FormData();
      form.set('model', request.model);
      form.set('response_format', 'json');
      if (request.language) form.set('language', request.language);
      if (request.prompt) form.set('prompt', request.prompt);
      form.set(
        'file',
        new Blob([new Uint8Array(request.bytes)], { type: request.contentType }),
        request.filename,
      );
      const body = record(await post('/audio/transcriptions', form, false));
      if (typeof body?.text !== 'string') {
        throw new UpstreamError('The LLM provider answered a transcription without text');
      }
      const usage = record(body.usage);
      return {
        text: body.text,
        usage: {
          prompt_tokens: tokens(usage?.input_tokens) ?? 0,
          completion_tokens: tokens(usage?.output_tokens) ?? estimateTokens(body.text),
        },
      };
    },
  };
}
