import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

// A scripted OpenAI-compatible provider for tests (the LLM provider double): chat completions (text,
// `response_format` json_schema answered with an instance sampled from the schema, tools and tool results,
// streaming), audio transcriptions, and a SearXNG-style `/searxng/search`. What the last user message
// says picks the behaviour, so a test steers it through the app's own prompt:
// - `[fail]` → HTTP 500 whose error text repeats the request's Authorization header (a key must not leak);
// - `[delay:<ms>]` → the answer comes after ms;
// - `[invalid]` → structured answers that never fit the schema; `[invalid-once]` → only the first does not;
// - `[answer-deep:<n>]`, `[answer-items:<n>]`, `[answer-chars:<n>]` → structured answers of a hostile shape:
//   arrays nested n deep, an array of n numbers, a string of n characters;
// - with tools offered (an agent's turn, the AI gateway): `[call:<tool> <json arguments>]`, once or more →
//   one tool call per round, in order; `[use-tool]` → one call of the first tool, its arguments sampled from
//   its schema; once the tools answered, the text `tool said: <each result, joined by " | ">`;
// - anything else → `echo: <prompt>` as text, or a sampled instance for a schema.
// Each call reports fixed usage (USAGE), so token budgets are easy to count; a stream reports it in a last
// chunk only when `stream_options.include_usage` asks, as OpenAI does.

/** USAGE is the usage every chat completion reports: 20 tokens a call. */
export const USAGE = { prompt_tokens: 12, completion_tokens: 8 };

/** DoubleRequest is one request the double received. */
export interface DoubleRequest {
  path: string;
  authorization: string | undefined;
  /** body is the parsed JSON body; for a transcription, the form's text fields and the file's name and size. */
  body: Record<string, unknown>;
}

export interface OpenAiDouble {
  /** baseUrl is what LLM_PROVIDER_URL takes: `http://127.0.0.1:<port>/v1`. */
  baseUrl: string;
  /** searchUrl is what WEB_SEARCH_URL takes (a SearXNG JSON API). */
  searchUrl: string;
  requests: DoubleRequest[];
  /** chats lists the chat completion requests' bodies. */
  chats(): Record<string, unknown>[];
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

/**
 * sampleOf is an instance of a JSON schema: the first enum value, one array item, every property; a `$ref`
 * (`#/…` within root) is followed, a recursive one only so far (then null).
 */
export function sampleOf(schema: unknown, root: unknown = schema, depth = 0): unknown {
  if (depth > 32) return null;
  const node = (schema ?? {}) as Json;
  const sample = (child: unknown) => sampleOf(child, root, depth + 1);
  if (typeof node.$ref === 'string' && node.$ref.startsWith('#')) {
    const path = node.$ref
      .slice(1)
      .split('/')
      .slice(1)
      .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
    return sample(path.reduce<unknown>((at, token) => (at as Json | undefined)?.[token], root));
  }
  if (Array.isArray(node.enum)) return node.enum[0];
  if ('const' in node) return node.const;
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const options = node[key];
    if (Array.isArray(options) && options.length > 0) return sample(options[0]);
  }
  const type = Array.isArray(node.type) ? node.type[0] : node.type;
  switch (type) {
    case 'object': {
      const properties = (node.properties ?? {}) as Json;
      return Object.fromEntries(Object.entries(properties).map(([name, child]) => [name, sample(child)]));
    }
    case 'array':
      return [sample(node.items)];
    case 'integer':
      return typeof node.minimum === 'number' ? Math.ceil(node.minimum) : 1;
    case 'number':
      return typeof node.minimum === 'number' ? node.minimum : 1.5;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return node.format === 'date' ? '2026-01-01' : 'text';
  }
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as Json[]).map((part) => (part.type === 'text' ? String(part.text) : '')).join('');
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** formFields reads a multipart body's text fields and its file's name and size (enough for a double). */
function formFields(body: Buffer, contentType: string): Json {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType);
  const marker = `--${boundary?.[1] ?? boundary?.[2] ?? ''}`;
  const fields: Json = {};
  for (const part of body.toString('latin1').split(marker)) {
    const [head = '', ...rest] = part.split('\r\n\r\n');
    const name = /name="([^"]+)"/.exec(head)?.[1];
    if (!name) continue;
    const value = rest.join('\r\n\r\n').replace(/\r\n$/, '');
    const filename = /filename="([^"]*)"/.exec(head)?.[1];
    fields[name] = filename === undefined ? value : { filename, size: value.length };
  }
  return fields;
}

function completion(message: Json, finishReason: string): Json {
  return {
    id: 'chatcmpl-double',
    object: 'chat.completion',
    created: 1,
    model: 'double',
    choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finishReason }],
    usage: { ...USAGE, total_tokens: USAGE.prompt_tokens + USAGE.completion_tokens },
  };
}

/** hostileAnswer is the structured answer a `[answer-…:<n>]` prompt scripts, or null. */
function hostileAnswer(prompt: string): string | null {
  const [, shape, count] = /\[answer-(deep|items|chars):(\d+)\]/.exec(prompt) ?? [];
  const n = Number(count);
  if (shape === 'deep') return `${'['.repeat(n)}${']'.repeat(n)}`;
  if (shape === 'items') return `[${Array.from({ length: n }, (_, i) => i).join(',')}]`;
  if (shape === 'chars') return JSON.stringify('x'.repeat(n));
  return null;
}

/**
 * scriptedTurn answers an agent's step: the `[call:…]` directives of the turn's user message (the last one),
 * one per round (or `[use-tool]`: the first tool once), then a text that repeats what the tools answered.
 */
function scriptedTurn(messages: Json[], tools: Json[]): { message: Json; finish: string } {
  const turnStart = messages.findLastIndex((message) => message.role === 'user');
  const prompt = textOf(messages[turnStart]?.content);
  const calls = [...prompt.matchAll(/\[call:([\w-]+) (\{.*?\})\]/g)];
  const results = messages
    .slice(turnStart + 1)
    .filter((message) => message.role === 'tool')
    .map((message) => textOf(message.content));
  const next = calls[results.length];
  if (!next && results.length === 0 && prompt.includes('[use-tool]')) {
    const fn = (tools[0]?.function ?? {}) as Json;
    const call = {
      id: 'call_1',
      type: 'function',
      function: { name: fn.name, arguments: JSON.stringify(sampleOf(fn.parameters)) },
    };
    return { message: { content: null, tool_calls: [call] }, finish: 'tool_calls' };
  }
  if (next) {
    const call = {
      id: `call_${results.length + 1}`,
      type: 'function',
      function: { name: next[1], arguments: next[2] },
    };
    return { message: { content: null, tool_calls: [call] }, finish: 'tool_calls' };
  }
  if (results.length > 0)
    return { message: { content: `tool said: ${results.join(' | ')}` }, finish: 'stop' };
  return { message: { content: `echo: ${prompt.slice(-200)}` }, finish: 'stop' };
}

/** answerOf decides the assistant message for a chat request. */
function answerOf(body: Json): { message: Json; finish: string } {
  const messages = (Array.isArray(body.messages) ? body.messages : []) as Json[];
  const tools = Array.isArray(body.tools) ? (body.tools as Json[]) : [];
  if (tools.length > 0) return scriptedTurn(messages, tools);
  const prompt = textOf(messages.filter((message) => message.role === 'user').at(0)?.content);
  const format = body.response_format as Json | undefined;
  const schema =
    format?.type === 'json_schema' ? (format.json_schema as Json | undefined)?.schema : undefined;
  if (schema !== undefined) {
    const hostile = hostileAnswer(prompt);
    if (hostile !== null) return { message: { content: hostile }, finish: 'stop' };
    const repairing = messages.some((message) => message.role === 'assistant');
    const invalid = prompt.includes('[invalid]') || (prompt.includes('[invalid-once]') && !repairing);
    return {
      message: { content: invalid ? '{"unexpected": true' : JSON.stringify(sampleOf(schema)) },
      finish: 'stop',
    };
  }
  return { message: { content: `echo: ${prompt.slice(-200)}` }, finish: 'stop' };
}

function stream(response: ServerResponse, message: Json, includeUsage: boolean): void {
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  const chunk = (delta: Json, finish: string | null) =>
    `data: ${JSON.stringify({ id: 'chatcmpl-double', object: 'chat.completion.chunk', created: 1, model: 'double', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  response.write(chunk({ role: 'assistant' }, null));
  if (Array.isArray(message.tool_calls)) {
    const [call] = message.tool_calls as Json[];
    const fn = (call?.function ?? {}) as Json;
    response.write(
      chunk(
        {
          tool_calls: [
            { index: 0, id: call?.id, type: 'function', function: { name: fn.name, arguments: '' } },
          ],
        },
        null,
      ),
    );
    response.write(chunk({ tool_calls: [{ index: 0, function: { arguments: fn.arguments } }] }, null));
    response.write(chunk({}, 'tool_calls'));
  } else {
    for (const word of String(message.content).split(/(?<= )/))
      response.write(chunk({ content: word }, null));
    response.write(chunk({}, 'stop'));
  }
  // What OpenAI sends for `stream_options.include_usage`: a last chunk with no choices and the usage.
  if (includeUsage) {
    response.write(
      `data: ${JSON.stringify({ id: 'chatcmpl-double', object: 'chat.completion.chunk', created: 1, model: 'double', choices: [], usage: USAGE })}\n\n`,
    );
  }
  response.end('data: [DONE]\n\n');
}

/** startOpenAiDouble listens on 127.0.0.1 (a free port). */
export async function startOpenAiDouble(): Promise<OpenAiDouble> {
  const requests: DoubleRequest[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://double');
      const raw = await readBody(request);
      const json = (status: number, value: unknown) =>
        response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      if (url.pathname === '/searxng/search') {
        requests.push({
          path: url.pathname,
          authorization: undefined,
          body: Object.fromEntries(url.searchParams),
        });
        return json(200, {
          query: url.searchParams.get('q'),
          results: [
            { title: 'Lake level today', url: 'https://news.example/lake', content: 'The lake is 2 m high.' },
            { title: 'Weather', url: 'https://weather.example/today', content: 'Sunny, 21 °C.' },
          ],
        });
      }
      const authorization = request.headers.authorization;
      if (url.pathname === '/v1/models')
        return json(200, { object: 'list', data: [{ id: 'double', object: 'model' }] });
      if (url.pathname === '/v1/audio/transcriptions') {
        const fields = formFields(raw, String(request.headers['content-type'] ?? ''));
        requests.push({ path: url.pathname, authorization, body: fields });
        const file = fields.file as { filename: string; size: number } | undefined;
        if (!file) return json(400, { error: { message: 'file is required' } });
        return json(200, { text: `transcribed ${file.filename} (${file.size} bytes)` });
      }
      if (url.pathname !== '/v1/chat/completions')
        return json(404, { error: { message: `no route ${url.pathname}` } });
      let body: Json;
      try {
        body = JSON.parse(raw.toString('utf8')) as Json;
      } catch {
        return json(400, { error: { message: 'body is not JSON' } });
      }
      requests.push({ path: url.pathname, authorization, body });
      const prompt = JSON.stringify(body.messages ?? '');
      const delay = /\[delay:(\d+)\]/.exec(prompt);
      if (delay) {
        await new Promise((resolve) => setTimeout(resolve, Number(delay[1])));
        if (response.destroyed) return;
      }
      if (prompt.includes('[fail]')) {
        return json(500, {
          error: { message: `internal failure for ${authorization ?? 'nobody'}`, type: 'server_error' },
        });
      }
      const { message, finish } = answerOf(body);
      if (body.stream === true) {
        const options = body.stream_options as Json | undefined;
        return stream(response, message, options?.include_usage === true);
      }
      json(200, completion(message, finish));
    })();
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl: `${origin}/v1`,
    searchUrl: `${origin}/searxng`,
    requests,
    chats: () => requests.filter((entry) => entry.path === '/v1/chat/completions').map((entry) => entry.body),
    close: () =>
      new Promise((closed) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => closed());
      }),
  };
}
