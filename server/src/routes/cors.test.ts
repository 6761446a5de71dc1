// CORS_ORIGINS: front ends served elsewhere (the late-2025 template's `serverUrl`) call the API with
// credentials, and sign-out may send the browser back to them; any other origin gets nothing (in-process).
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestPlatform, TEST_APP_ID, type TestPlatform } from '../test-support/build-test-platform';

const LISTED = 'http://localhost:4173';
const OTHER = 'https://evil.example';
let platform: TestPlatform;
let app: FastifyInstance;

beforeAll(async () => {
  platform = await buildTestPlatform({ CORS_ORIGINS: `${LISTED} https://camp.example` });
  app = platform.app;
});

afterAll(async () => {
  await platform?.dispose();
});

const settingsUrl = `/api/apps/public/prod/public-settings/by-id/${TEST_APP_ID}`;

describe('CORS for listed origins', () => {
  it('answers a listed origin’s preflight with its origin, credentials, the method and the SDK’s headers', async () => {
    const response = await app.inject({
      method: 'OPTIONS',
      url: `/api/apps/${TEST_APP_ID}/entities/Todo`,
      headers: {
        origin: LISTED,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, x-app-id',
      },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe(LISTED);
    expect(response.headers['access-control-allow-credentials']).toBe('true');
    expect(response.headers['access-control-allow-methods']).toContain('POST');
    expect(response.headers['access-control-allow-headers']).toBe('authorization, content-type, x-app-id');
    expect(response.headers['access-control-max-age']).toBe('600');
  });

  it('marks a listed origin’s request as readable, with credentials', async () => {
    const response = await app.inject({ url: settingsUrl, headers: { origin: LISTED } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe(LISTED);
    expect(response.headers['access-control-allow-credentials']).toBe('true');
    expect(String(response.headers.vary)).toMatch(/origin/i);
  });

  it('gives an unlisted origin no CORS header at all (no credentials), also on preflight', async () => {
    const simple = await app.inject({ url: settingsUrl, headers: { origin: OTHER } });
    expect(simple.headers['access-control-allow-origin']).toBeUndefined();
    expect(simple.headers['access-control-allow-credentials']).toBeUndefined();
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: `/api/apps/${TEST_APP_ID}/entities/Todo`,
      headers: { origin: OTHER, 'access-control-request-method': 'DELETE' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
  });
});

describe('sign-out back to a listed origin', () => {
  it.each([
    [`${LISTED}/trips?x=1`, `${LISTED}/trips?x=1`],
    ['https://camp.example/', 'https://camp.example/'],
    [`${OTHER}/`, '/'],
    ['http://localhost:4174/', '/'],
  ])('redirects from_url=%s to %s', async (fromUrl, location) => {
    const response = await app.inject({
      url: `/api/apps/auth/logout?from_url=${encodeURIComponent(fromUrl)}`,
      // The Host names the listed origin: request headers never make an origin allowed.
      headers: { host: 'evil.example', origin: OTHER },
    });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(location);
  });
});

describe('without CORS_ORIGINS', () => {
  // Built in a hook (60 s on a busy machine), not inside the test's own 5 s.
  let plain: TestPlatform;
  beforeAll(async () => {
    plain = await buildTestPlatform();
  });
  afterAll(async () => {
    await plain?.dispose();
  });

  it('sends no CORS header to anyone', async () => {
    const response = await plain.app.inject({ url: settingsUrl, headers: { origin: LISTED } });
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    const logout = await plain.app.inject({
      url: `/api/apps/auth/logout?from_url=${encodeURIComponent(`${LISTED}/`)}`,
    });
    expect(logout.headers.location).toBe('/');
  });
});
