import type { Base44Error } from '@base44/sdk';
import { expect, test } from '../../support/test';
import {
  startImageProviderDouble,
  TINY_PNG,
  type ImageProviderDouble,
} from '../../support/openai-images-double';
import { sdkClient } from '../../support/sdk-client';
import { startServer, type RunningServer } from '../../support/server-process';

// GenerateImage against an OpenAI-compatible provider (a local double): success, failures, timeout, secrets.
const appId = 'queen-solana';
const secretKey = 'sk-test-SECRET-do-not-log-4242';
let provider: ImageProviderDouble;
let server: RunningServer;

test.beforeAll(async () => {
  provider = await startImageProviderDouble();
  server = await startServer({
    env: {
      IMAGE_PROVIDER: provider.url,
      IMAGE_PROVIDER_KEY: secretKey,
      IMAGE_MODEL: 'test-model',
      IMAGE_PROVIDER_TIMEOUT_MS: '1000',
    },
  });
});

test.afterAll(async () => {
  expect(await server.stop()).toBe(0);
  await provider.close();
});

const client = () => sdkClient(server.url, appId);

async function generateError(prompt: string): Promise<Base44Error> {
  return (await client()
    .integrations.Core.GenerateImage({ prompt })
    .catch((caught: unknown) => caught)) as Base44Error;
}

test('a b64 answer is stored and served as PNG; the request carries the model and the Bearer key', async () => {
  const { url } = (await client().integrations.Core.GenerateImage({ prompt: 'a png queen' })) as {
    url: string;
  };
  expect(url).toMatch(/\/media\/[0-9a-f]{64}\.png$/);
  const response = await fetch(url);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('image/png');
  expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  expect(Buffer.from(await response.arrayBuffer()).equals(TINY_PNG)).toBe(true);

  const sent = provider.requests.find((request) => request.body.prompt === 'a png queen');
  expect(sent?.authorization).toBe(`Bearer ${secretKey}`);
  expect(sent?.body).toEqual({
    model: 'test-model',
    prompt: 'a png queen',
    n: 1,
    size: '1024x1024',
    response_format: 'b64_json',
  });
});

test('a stored prompt is answered without asking the provider again', async () => {
  const first = (await client().integrations.Core.GenerateImage({ prompt: 'ask once' })) as { url: string };
  const second = (await client().integrations.Core.GenerateImage({ prompt: 'ask once' })) as { url: string };
  expect(second.url).toBe(first.url);
  expect(provider.requests.filter((request) => request.body.prompt === 'ask once')).toHaveLength(1);
});

test('a url answer is downloaded and stored', async () => {
  const { url } = (await client().integrations.Core.GenerateImage({ prompt: 'by url please' })) as {
    url: string;
  };
  const response = await fetch(url);
  expect(response.headers.get('content-type')).toBe('image/png');
  expect(Buffer.from(await response.arrayBuffer()).equals(TINY_PNG)).toBe(true);
});

test('a provider 500 is a 502 with the reason, and nothing is stored', async () => {
  const error = await generateError('please fail');
  expect(error.status).toBe(502);
  expect(error.message).toBe('Image provider failed: the provider answered HTTP 500');
  // Nothing was stored, so a retry asks the provider again.
  await generateError('please fail');
  expect(provider.requests.filter((request) => request.body.prompt === 'please fail')).toHaveLength(2);
});

test('a provider that never answers times out as a 502', async () => {
  const error = await generateError('hang forever');
  expect(error.status).toBe(502);
  expect(error.message).toContain('Image provider failed: no answer within 1000 ms');
});

test('the key never appears in the logs or in error messages', async () => {
  const error = await generateError('fail again');
  expect(error.message).not.toContain(secretKey);
  expect(server.logs()).not.toContain(secretKey);
  const response = await fetch(`${server.url}/healthz`, {
    headers: { authorization: `Bearer ${secretKey}` },
  });
  expect(response.status).toBe(200);
  expect(server.logs()).not.toContain(secretKey);
});
