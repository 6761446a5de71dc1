// The streamed chat call of an agent's step against a local provider: text handed over as it grows, tool
// calls assembled from deltas, usage from the last chunk, a plain JSON answer read the same way, and the
// bounds on what a provider may send.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatTurn, MAX_TOOL_CALLS } from './chat-turn';

let server: Server;
let answer: (body: Record<string, unknown>) => { type: string; text: string };
const received: Record<string, unknown>[] = [];
const chunk = (delta: object, usage?: object) =>
  `data: ${JSON.stringify({ choices: [{ index: 0, delta }], ...(usage ? { usage } : {}) })}\n\n`;

beforeAll(async () => {
  server = createServer((request, response) => {
    let raw = '';
    request.on('data', (part: Buffer) => (raw += String(part)));
    request.on('end', () => {
      const body = JSON.parse(raw) as Record<string, unknown>;
      received.push(body);
      const { type, text } = answer(body);
      response.writeHead(200, { 'content-type': type }).end(text);
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
});
afterAll(() => new Promise<void>((closed) => server.close(() => closed())));

const turn = () =>
  createChatTurn({
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    timeoutMs: 5_000,
  });
const request = {
  model: 'm',
  messages: [{ role: 'user' as const, content: 'hi' }],
  tools: [{ name: 't', description: 'd', parameters: {} }],
};

describe('createChatTurn', () => {
  it('streams text, assembles tool calls from their deltas and reads usage from the last chunk', async () => {
    answer = () => ({
      type: 'text/event-stream',
      text: [
        chunk({ role: 'assistant' }),
        chunk({ content: 'Hel' }),
        chunk({ content: 'lo' }),
        chunk({ tool_calls: [{ index: 0, id: 'call_a', function: { name: 'create_', arguments: '{"ti' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { name: 'task', arguments: 'tle":"x"}' } }] }),
        `data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 7, completion_tokens: 3 } })}\n\n`,
        'data: [DONE]\n\n',
      ].join(''),
    });
    const texts: string[] = [];
    const result = await turn()(request, (text) => texts.push(text));
    expect(texts).toEqual(['Hel', 'Hello']);
    expect(result).toEqual({
      content: 'Hello',
      toolCalls: [{ id: 'call_a', name: 'create_task', arguments: '{"title":"x"}' }],
      usage: { prompt_tokens: 7, completion_tokens: 3 },
    });
    expect(received.at(-1)).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
      tools: [{ type: 'function', function: { name: 't' } }],
    });
  });

  it('reads a provider that answers without streaming, and estimates usage it does not report', async () => {
    answer = () => ({
      type: 'application/json',
      text: JSON.stringify({ choices: [{ message: { content: 'whole answer' } }] }),
    });
    const result = await turn()(request, () => undefined);
    expect(result.content).toBe('whole answer');
    expect(result.usage.completion_tokens).toBeGreaterThan(0);
  });

  it(`refuses more than ${MAX_TOOL_CALLS} tool calls and a stream that is not JSON`, async () => {
    answer = () => ({
      type: 'text/event-stream',
      text: chunk({
        tool_calls: [{ index: MAX_TOOL_CALLS, id: 'x', function: { name: 'n', arguments: '{}' } }],
      }),
    });
    await expect(turn()(request, () => undefined)).rejects.toThrow(`more than ${MAX_TOOL_CALLS} tool calls`);
    answer = () => ({ type: 'text/event-stream', text: 'data: {not json\n\n' });
    await expect(turn()(request, () => undefined)).rejects.toThrow('not JSON');
  });
});
