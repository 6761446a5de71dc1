// Page logs through the whole platform, in-process: both POST paths with and without tokens, the bounds,
// the admins' reads and a private app's anonymous beacons (stored without a user). The e2e spec drives the same through the SDK.
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestPlatform,
  TEST_APP_ID,
  TEST_SERVICE_TOKEN,
  type TestPlatform,
} from '../test-support/build-test-platform';

let platform: TestPlatform;
let app: FastifyInstance;
const tokens: Record<'admin' | 'user', string> = { admin: '', user: '' };
const userIds: Record<'admin' | 'user', string> = { admin: '', user: '' };
const service = { authorization: `Bearer ${TEST_SERVICE_TOKEN}` };
const RATE_LIMIT = 5;
let nextIp = 1;

/** freshIp is an address no earlier request used, so the per-IP limit starts over. */
const freshIp = () => `198.51.100.${nextIp++}`;

async function send(options: InjectOptions) {
  const response = await app.inject({ remoteAddress: '192.0.2.1', ...options });
  const body: unknown = response.body ? response.json() : null;
  return { status: response.statusCode, headers: response.headers, body };
}

const logPage = (page: string, options: Partial<InjectOptions> = {}, prefix = '/api') =>
  send({
    method: 'POST',
    url: `${prefix}/app-logs/${TEST_APP_ID}/log-user-in-app/${page}`,
    headers: { 'content-type': 'application/json' },
    remoteAddress: freshIp(),
    ...options,
  });

async function logs(query = '', headers: Record<string, string> = service) {
  return send({ url: `/api/app-logs/${TEST_APP_ID}${query}`, headers });
}

type LogItem = { page: string; user_id: string | null; referrer: string | null; visitor_key: string };

async function items(query = ''): Promise<LogItem[]> {
  const answer = await logs(query);
  expect(answer.status).toBe(200);
  return (answer.body as { items: LogItem[] }).items;
}

beforeAll(async () => {
  platform = await buildTestPlatform({ APP_LOG_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT) });
  app = platform.app;
  for (const role of ['admin', 'user'] as const) {
    const email = `${role}@logs.example`;
    const password = 'a-long-password-123';
    const created = await send({
      method: 'POST',
      url: `/api/apps/${TEST_APP_ID}/admin/users`,
      headers: service,
      payload: { email, password, role },
    });
    expect(created.status).toBe(201);
    userIds[role] = (created.body as { id: string }).id;
    const login = await send({
      method: 'POST',
      url: `/api/apps/${TEST_APP_ID}/auth/login`,
      payload: { email, password },
    });
    tokens[role] = (login.body as { access_token: string }).access_token;
  }
});

afterAll(async () => {
  await platform?.dispose();
});

describe('POST log-user-in-app', () => {
  it('stores an anonymous view on both paths (with and without /api), answering 204', async () => {
    expect((await logPage('Home')).status).toBe(204);
    expect((await logPage('Legacy', {}, '')).status).toBe(204);
    const pages = (await items('?limit=2')).map((item) => item.page);
    expect(pages).toEqual(['Legacy', 'Home']);
  });

  it('records the signed-in user; a bad token counts as anonymous', async () => {
    const auth = (token: string) => ({
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    });
    expect((await logPage('Mine', auth(tokens.user))).status).toBe(204);
    expect((await logPage('Stale', auth('not-a-token'))).status).toBe(204);
    const [stale, mine] = await items('?limit=2');
    expect(mine).toMatchObject({ page: 'Mine', user_id: userIds.user });
    expect(stale).toMatchObject({ page: 'Stale', user_id: null });
  });

  it('takes encoded and slashed page names, and keeps only origin and path of the referrer', async () => {
    const headers = { referer: 'https://app.example/Home%20Page?access_token=abc#top' };
    expect((await logPage('Home%20Page', { headers })).status).toBe(204);
    expect((await logPage('Projects/42')).status).toBe(204);
    const [slashed, spaced] = await items('?limit=2');
    expect(slashed?.page).toBe('Projects/42');
    expect(spaced).toMatchObject({ page: 'Home Page', referrer: 'https://app.example/Home%20Page' });
  });

  it('bounds the page name, the body and the app id before storing anything', async () => {
    const long = await logPage('x'.repeat(201));
    expect(long).toMatchObject({ status: 400, body: { message: 'page: must be at most 200 characters' } });
    expect((await logPage('')).status).toBe(400);
    expect((await logPage('Big', { payload: 'x'.repeat(2048) })).status).toBe(413);
    const unknownApp = await send({
      method: 'POST',
      url: '/api/app-logs/no-such-app/log-user-in-app/Home',
      remoteAddress: freshIp(),
    });
    expect(unknownApp.status).toBe(404);
    expect((await items('?page=Big')).length).toBe(0);
  });

  it('limits page views per IP with 429 and Retry-After', async () => {
    const remoteAddress = freshIp();
    for (let n = 0; n < RATE_LIMIT; n += 1) {
      expect((await logPage('Burst', { remoteAddress })).status).toBe(204);
    }
    const refused = await logPage('Burst', { remoteAddress });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await logPage('Burst')).status).toBe(204);
  });
});

describe('GET app-logs and stats', () => {
  it('answers admins and the service role; 401 without a token, 403 for a user', async () => {
    expect((await logs('', {})).status).toBe(401);
    expect((await logs('', { authorization: `Bearer ${tokens.user}` })).status).toBe(403);
    expect((await logs('/stats', { authorization: `Bearer ${tokens.user}` })).status).toBe(403);
    expect((await logs('', { authorization: `Bearer ${tokens.admin}` })).status).toBe(200);
    expect((await logs('/stats', { authorization: `Bearer ${tokens.admin}` })).status).toBe(200);
  });

  it('filters by page and user, and pages with limit/skip', async () => {
    expect((await items(`?user_id=${userIds.user}`)).map((item) => item.page)).toEqual(['Mine']);
    expect((await items('?page=Home')).length).toBe(1);
    const first = await logs('?limit=1&skip=1');
    expect(first.body).toMatchObject({ has_more: true, limit: 1, skip: 1 });
    expect((await logs('?limit=5000')).status).toBe(400);
    expect((await logs('?from=yesterday')).status).toBe(400);
  });

  it('counts views and distinct visitors per page and per day', async () => {
    const answer = await logs('/stats?page=Burst');
    expect(answer.status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(answer.body).toMatchObject({
      views: RATE_LIMIT + 1,
      visitors: 2,
      pages: [{ page: 'Burst', views: RATE_LIMIT + 1, visitors: 2 }],
      days: [{ day: today, views: RATE_LIMIT + 1, visitors: 2 }],
    });
  });
});

describe('a private app', () => {
  it("stores its users' views with the user and anonymous beacons without one", async () => {
    const settings = await send({
      method: 'PUT',
      url: `/api/apps/${TEST_APP_ID}/admin/settings`,
      headers: service,
      payload: { visibility: 'private_with_login' },
    });
    expect(settings.status).toBe(200);
    expect((await logPage('PrivateAnon')).status).toBe(204);
    expect((await logPage('PrivateLegacy', {}, '')).status).toBe(204);
    const signedIn = { headers: { authorization: `Bearer ${tokens.user}` } };
    expect((await logPage('PrivateUser', signedIn)).status).toBe(204);
    const stored = await items('?limit=3');
    expect(stored.map((item) => item.page).sort()).toEqual(['PrivateAnon', 'PrivateLegacy', 'PrivateUser']);
    expect(stored.find((item) => item.page === 'PrivateAnon')?.user_id ?? null).toBeNull();
    expect(stored.find((item) => item.page === 'PrivateUser')?.user_id).toBeTruthy();
    expect((await logs('', {})).status).toBe(401);
  });
});
