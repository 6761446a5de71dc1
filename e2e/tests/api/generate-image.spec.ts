import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { createClient, type Base44Error } from '@base44/sdk';
import { expect, test } from '../../support/test';
import { sdkClient } from '../../support/sdk-client';
import { apiScenarios } from '../../support/api-scenario';
import { startServer, type RunningServer } from '../../support/server-process';

// Core/GenerateImage with the built-in artist (no IMAGE_PROVIDER), and the media route that serves results.
const appId = 'queen-solana';
const endpoint = `/api/apps/${appId}/integration-endpoints/Core/GenerateImage`;
let server: RunningServer;

test.beforeAll(async () => {
  server = await startServer();
});

test.afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

const client = () => sdkClient(server.url, appId);

async function generate(prompt: string): Promise<string> {
  const result = (await client().integrations.Core.GenerateImage({ prompt })) as { url: string };
  return result.url;
}

async function post(body: BodyInit | undefined, contentType?: string) {
  const headers: Record<string, string> = contentType ? { 'content-type': contentType } : {};
  return fetch(`${server.url}${endpoint}`, { method: 'POST', headers, body });
}

test('GenerateImage returns an absolute media URL serving an SVG with strict headers', async () => {
  const url = await generate('a crowned cat on a throne');
  expect(url).toMatch(new RegExp(`^${server.url}/media/[0-9a-f]{64}\\.svg$`));
  const response = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('image/svg+xml');
  expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  expect(response.headers.get('content-security-policy')).toBe(
    "default-src 'none'; style-src 'unsafe-inline'",
  );
  expect(await response.text()).toContain('<svg');
});

test('a second identical call returns the same URL and the same bytes', async () => {
  const prompt = 'the same prompt twice';
  const first = await generate(prompt);
  const firstBytes = Buffer.from(await (await fetch(first)).arrayBuffer());
  const second = await generate(prompt);
  expect(second).toBe(first);
  const secondBytes = Buffer.from(await (await fetch(second)).arrayBuffer());
  expect(secondBytes.equals(firstBytes)).toBe(true);
});

test('concurrent calls for one prompt share one image', async () => {
  const urls = await Promise.all(Array.from({ length: 5 }, () => generate('five at once')));
  expect(new Set(urls).size).toBe(1);
});

test('SVG media is compressed per Accept-Encoding', async () => {
  const url = await generate('compress me');
  const plain = await (await fetch(url, { headers: { 'accept-encoding': 'identity' } })).text();
  const raw = (encoding: string) =>
    new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolveRaw, reject) => {
      request(url, { headers: { 'accept-encoding': encoding } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolveRaw({ headers: response.headers, body: Buffer.concat(chunks) }));
      })
        .on('error', reject)
        .end();
    });
  const br = await raw('gzip, br');
  expect(br.headers['content-encoding']).toBe('br');
  expect(brotliDecompressSync(br.body).toString()).toBe(plain);
  const gzip = await raw('gzip');
  expect(gzip.headers['content-encoding']).toBe('gzip');
  expect(gunzipSync(gzip.body).toString()).toBe(plain);
});

test('PUBLIC_URL is not set, so the URL follows the Host the request used', async () => {
  const response = await fetch(`${server.url.replace('127.0.0.1', 'localhost')}${endpoint}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'host based' }),
  });
  expect((await response.json()).url).toMatch(/^http:\/\/localhost:\d+\/media\//);
});

test('unknown or malformed media names are 404', async () => {
  for (const file of ['nope.svg', `${'a'.repeat(64)}.svg`, `${'a'.repeat(64)}.exe`, '..%2Fetc%2Fpasswd']) {
    expect((await fetch(`${server.url}/media/${file}`)).status).toBe(404);
  }
});

test('the SDK reports bad prompts as 400 with a message naming prompt', async () => {
  for (const args of [{}, { prompt: '' }, { prompt: '   ' }, { prompt: 42 }, { prompt: 'x'.repeat(4001) }]) {
    const error = (await client()
      .integrations.Core.GenerateImage(args as { prompt: string })
      .catch((caught: unknown) => caught)) as Base44Error;
    expect(error.status, JSON.stringify(args).slice(0, 40)).toBe(400);
    expect(error.message).toContain('prompt');
  }
});

test('a prompt of exactly 4000 characters is accepted', async () => {
  expect(await generate('y'.repeat(4000))).toContain('/media/');
});

test('an SDK call with no argument (empty JSON body) is 400, not a parser error', async () => {
  const error = (await client()
    .integrations.Core.GenerateImage(undefined as unknown as { prompt: string })
    .catch((caught: unknown) => caught)) as Base44Error;
  expect(error.status).toBe(400);
  expect(error.message).toContain('GenerateImage');
  const response = await post(undefined, 'application/json');
  expect(response.status).toBe(400);
  expect((await response.json()).message).toContain('empty');
});

apiScenarios(
  (
    [
      ['a JSON string', '"draw a queen"'],
      ['a JSON array', '["draw a queen"]'],
      ['a JSON number', '42'],
    ] as const
  ).map(([name, body]) => ({
    name: `${name} body is 400 asking for named parameters`,
    caller: 'anonymous',
    request: { method: 'POST', path: endpoint, rawBody: body },
    status: 400,
    message: 'must receive an object with named parameters',
  })),
  { baseUrl: () => server.url },
);

test('a text/plain body is 400', async () => {
  const response = await post('{"prompt":"x"}', 'text/plain');
  expect(response.status).toBe(400);
  expect((await response.json()).message).toContain('must receive an object with named parameters');
});

test('invalid JSON is 400', async () => {
  const response = await post('{"prompt":', 'application/json');
  expect(response.status).toBe(400);
  expect((await response.json()).message).toContain('not valid JSON');
});

test('an oversized body is 413', async () => {
  const response = await post(JSON.stringify({ prompt: 'x'.repeat(1_100_000) }), 'application/json');
  expect(response.status).toBe(413);
});

test('a Core integration this server lacks is 501 saying it is not available yet', async () => {
  const core = client().integrations.Core as unknown as {
    SendSMS(input: object): Promise<unknown>;
  };
  const error = (await core
    .SendSMS({ to: '+1555', message: 'hi' })
    .catch((caught: unknown) => caught)) as Base44Error;
  expect(error.status).toBe(501);
  expect(error.message).toContain('Core.SendSMS is not available on this server yet');
});

test('GenerateImage for an unknown app is 404', async () => {
  const other = createClient({ serverUrl: server.url, appId: 'no-such-app', requiresAuth: false });
  const error = (await other.integrations.Core.GenerateImage({ prompt: 'x' }).catch(
    (caught: unknown) => caught,
  )) as Base44Error;
  expect(error.status).toBe(404);
});
