// The provider client against a local scripted server: what it sends, and how each failure is told to the
// caller (timeout, HTTP error, unreachable, not JSON) without the key.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLlmProvider, MAX_PROVIDER_ANSWER_BYTES } from './llm-provider';

const KEY = 'sk-unit-secret';
let server: Server;
let baseUrl = '';
const seen: { path: string; authorization?: string; body: string }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('latin1')));
    request.on('end', () => {
      seen.push({ path: request.url ?? '', authorization: request.headers.authorization, body });
      if (body.includes('slow')) return void setTimeout(() => response.end('{}'), 1000);
      if (body.includes('boom')) {
        return void response.writeHead(500).end(`{"error":"bad key ${request.headers.authorization}"}`);
      }
      if (body.includes('html')) return void response.writeHead(200).end('<html>');
      if (body.includes('flood')) return void response.end(' '.repeat(MAX_PROVIDER_ANSWER_BYTES + 1));
      if (request.url === '/v1/audio/transcriptions') return void response.end('{"text":"hello there"}');
      response.end(
        JSON.stringify({
          choices: [{ message: { content: 'ok' } }],
          usage: { prompt_tokens: 3, completion_tokens: 1 },
        }),
      );
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => new Promise<void>((closed) => server.close(() => closed())));

const ask = (content: string) => ({ model: 'm', messages: [{ role: 'user' as const, content }] });

describe('LLM provider client', () => {
  it('sends the key as a bearer and the schema as structured output; reads text and usage', async () => {
    const provider = createLlmProvider({ baseUrl, apiKey: KEY, timeoutMs: 500 });
    expect(provider.host).toBe(new URL(baseUrl).host);
    expect(await provider.chat({ ...ask('hi'), jsonSchema: { type: 'object' } })).toEqual({
      content: 'ok',
      usage: { prompt_tokens: 3, completion_tokens: 1 },
    });
    const sent = seen.at(-1);
    expect(sent?.path).toBe('/v1/chat/completions');
    expect(sent?.authorization).toBe(`Bearer ${KEY}`);
    expect(JSON.parse(sent?.body ?? '{}').response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'response', schema: { type: 'object' }, strict: false },
    });
  });

  it('tells a timeout, an HTTP error, a non-JSON or too large answer and an unreachable provider apart, without the key', async () => {
    const onFailure = vi.fn();
    const provider = createLlmProvider({ baseUrl, apiKey: KEY, timeoutMs: 200, onFailure });
    await expect(provider.chat(ask('slow'))).rejects.toMatchObject({
      name: 'OutboundLimitError',
      reason: 'timeout',
    });
    await expect(provider.chat(ask('boom'))).rejects.toThrow('The LLM provider failed (HTTP 500)');
    expect(JSON.stringify(onFailure.mock.calls)).toContain('[key]');
    expect(JSON.stringify(onFailure.mock.calls)).not.toContain(KEY);
    await expect(provider.chat(ask('html'))).rejects.toThrow('not JSON');
    const patient = createLlmProvider({ baseUrl, timeoutMs: 10_000 });
    await expect(patient.chat(ask('flood'))).rejects.toThrow("The LLM provider's answer is larger than 8 MB");
    const gone = createLlmProvider({ baseUrl: 'http://127.0.0.1:9/v1', timeoutMs: 500 });
    await expect(gone.chat(ask('hi'))).rejects.toThrow('The LLM provider could not be reached');
  });

  it('sends audio as a form and reads the transcription', async () => {
    const provider = createLlmProvider({ baseUrl, timeoutMs: 500 });
    const result = await provider.transcribe({
      model: 'whisper-1',
      bytes: Buffer.from('OggS'),
      filename: 'a.ogg',
      contentType: 'audio/ogg',
      language: 'en',
    });
    expect(result.text).toBe('hello there');
    expect(seen.at(-1)?.body).toContain('filename="a.ogg"');
  });
});
