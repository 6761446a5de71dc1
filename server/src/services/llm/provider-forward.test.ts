// The gateway's pass-through on the provider client against a local scripted server: our key and nothing
// else, failures told without the provider's text or the key, and the answer bounded in bytes and time.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { OutboundLimitError, UpstreamError } from '../../lib/errors';
import { createLlmProvider, MAX_PROVIDER_ANSWER_BYTES } from './llm-provider';

const KEY = 'sk-forward-secret';
let server: Server;
let baseUrl = '';
const seen: { method: string; path: string; headers: Record<string, unknown>; body: string }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      seen.push({ method: request.method ?? '', path: request.url ?? '', headers: request.headers, body });
      if (body.includes('boom'))
        return void response.writeHead(401).end(`bad key ${request.headers.authorization}`);
      if (body.includes('flood')) return void response.end(' '.repeat(MAX_PROVIDER_ANSWER_BYTES + 1));
      if (body.includes('stall')) {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        return void response.write('data: {}\n\n');
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((closed) => server.close(() => closed()));
});

async function textOf(body: AsyncIterable<Buffer>): Promise<string> {
  let text = '';
  for await (const chunk of body) text += chunk.toString('utf8');
  return text;
}

describe('forward', () => {
  it('POSTs the body with our key, GETs without one; answers type and body', async () => {
    const provider = createLlmProvider({ baseUrl, apiKey: KEY, timeoutMs: 2000 });
    const answer = await provider.forward('/chat/completions', '{"model":"m"}');
    expect(answer.contentType).toBe('application/json');
    expect(await textOf(answer.body)).toBe('{"ok":true}');
    const models = await provider.forward('/models', undefined);
    expect(await textOf(models.body)).toBe('{"ok":true}');
    const [post, get] = seen.slice(-2);
    expect(post).toMatchObject({ method: 'POST', path: '/v1/chat/completions', body: '{"model":"m"}' });
    expect(post?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(get).toMatchObject({ method: 'GET', path: '/v1/models', body: '' });
  });

  it('tells a provider error by its status only; the log gets its text without the key', async () => {
    const onFailure = vi.fn();
    const provider = createLlmProvider({ baseUrl, apiKey: KEY, timeoutMs: 2000, onFailure });
    const error = await provider.forward('/chat/completions', '"boom"').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as Error).message).toBe('The LLM provider failed (HTTP 401)');
    expect(onFailure).toHaveBeenCalledWith({ status: 401, message: 'bad key Bearer [key]' });
  });

  it('bounds the answer in bytes', async () => {
    const provider = createLlmProvider({ baseUrl, timeoutMs: 5000 });
    const answer = await provider.forward('/chat/completions', '"flood"');
    await expect(textOf(answer.body)).rejects.toThrow(/larger than 8 MB/);
  });

  it('bounds a stream in time (LLM_TIMEOUT_MS), and a caller going away is no provider failure', async () => {
    const onFailure = vi.fn();
    const provider = createLlmProvider({ baseUrl, timeoutMs: 300, onFailure });
    const stalled = await provider.forward('/chat/completions', '"stall"');
    const error = await textOf(stalled.body).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OutboundLimitError);
    expect((error as Error).message).toContain('LLM_TIMEOUT_MS');
    const caller = new AbortController();
    const left = await createLlmProvider({ baseUrl, timeoutMs: 5000, onFailure }).forward(
      '/chat/completions',
      '"stall"',
      caller.signal,
    );
    setTimeout(() => caller.abort(), 50);
    await expect(textOf(left.body)).rejects.toThrow('The call was cancelled');
    expect(onFailure).not.toHaveBeenCalled();
  });

  it('tells an unreachable provider without its address details', async () => {
    const provider = createLlmProvider({ baseUrl: 'http://127.0.0.1:1/v1', timeoutMs: 2000 });
    await expect(provider.forward('/models', undefined)).rejects.toThrow(
      'The LLM provider could not be reached',
    );
  });
});
