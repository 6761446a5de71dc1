import { createClient, type Base44Error } from '@base44/sdk';
import { expect, test } from '../../support/test';
import { io } from 'socket.io-client';
import { sdkClient } from '../../support/sdk-client';
import { apiScenarios } from '../../support/api-scenario';
import { startServer, type RunningServer } from '../../support/server-process';

// Health, public settings, the signed-out user and analytics, through the official SDK where it can
// send the request and through fetch where only a broken client could.
const appId = 'queen-solana';
let server: RunningServer;

test.beforeAll(async () => {
  server = await startServer();
});

test.afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

const client = () => sdkClient(server.url, appId);

async function postJson(path: string, body: string, headers: Record<string, string> = {}) {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
}

const batchPath = `/api/apps/${appId}/analytics/track/batch`;

test('GET /healthz answers ok', async () => {
  const response = await fetch(`${server.url}/healthz`);
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ status: 'ok' });
});

test('public settings come from the apps table', async () => {
  expect(await client().app.getPublicSettings()).toEqual({
    id: appId,
    public_settings: 'public_without_login',
  });
});

test('public settings of an unknown app are 404 with a message', async () => {
  const other = createClient({ serverUrl: server.url, appId: 'no-such-app', requiresAuth: false });
  const error = (await other.app.getPublicSettings().catch((caught: unknown) => caught)) as Base44Error;
  expect(error.status).toBe(404);
  expect(error.message).toContain('no-such-app');
});

test('User/me is 401 with a clear message while nobody can sign in', async () => {
  const error = (await client()
    .auth.me()
    .catch((caught: unknown) => caught)) as Base44Error;
  expect(error.status).toBe(401);
  expect(error.message).toBe('Authentication required: sign in to continue');
  expect(await client().auth.isAuthenticated()).toBe(false);
});

test('User/me of an unknown app is 404', async () => {
  const response = await fetch(`${server.url}/api/apps/no-such-app/entities/User/me`);
  expect(response.status).toBe(404);
  expect((await response.json()).message).toContain('no-such-app');
});

test('an analytics batch is stored and answered 204', async () => {
  const events = [
    {
      event_name: 'page_view',
      properties: { path: '/' },
      timestamp: new Date().toISOString(),
      page_url: '/',
      user_id: null,
      session_id: 'abc123',
    },
    { event_name: 'minimal' },
  ];
  const response = await postJson(batchPath, JSON.stringify({ events }));
  expect(response.status).toBe(204);
  expect(await response.text()).toBe('');
});

test('an analytics batch sent like navigator.sendBeacon is accepted', async () => {
  const blob = new Blob([JSON.stringify({ events: [{ event_name: 'beacon' }] })], {
    type: 'application/json',
  });
  const response = await fetch(`${server.url}${batchPath}`, { method: 'POST', body: blob });
  expect(response.status).toBe(204);
});

apiScenarios(
  (
    [
      ['no events', '{}', 'events'],
      ['empty events', '{"events":[]}', 'events'],
      [
        '101 events',
        JSON.stringify({ events: Array.from({ length: 101 }, () => ({ event_name: 'x' })) }),
        'events',
      ],
      ['a missing event_name', '{"events":[{}]}', 'events.0.event_name'],
      ['an empty event_name', '{"events":[{"event_name":""}]}', 'events.0.event_name'],
      [
        'a long event_name',
        JSON.stringify({ events: [{ event_name: 'x'.repeat(201) }] }),
        'events.0.event_name',
      ],
      ['array properties', '{"events":[{"event_name":"x","properties":[1]}]}', 'events.0.properties'],
      ['a bad timestamp', '{"events":[{"event_name":"x","timestamp":"yesterday"}]}', 'events.0.timestamp'],
      ['a numeric page_url', '{"events":[{"event_name":"x","page_url":5}]}', 'events.0.page_url'],
      ['a numeric user_id', '{"events":[{"event_name":"x","user_id":5}]}', 'events.0.user_id'],
      ['a JSON string', '"hello"', 'object'],
      ['an empty body', '', 'object'],
    ] as const
  ).map(([name, body, field]) => ({
    name: `an analytics batch with ${name} is 400 naming ${field}`,
    caller: 'anonymous',
    request: { method: 'POST', path: batchPath, rawBody: body },
    status: 400,
    message: field,
  })),
  { baseUrl: () => server.url },
);

test('an analytics batch for an unknown app is 404', async () => {
  const response = await postJson(
    '/api/apps/no-such-app/analytics/track/batch',
    '{"events":[{"event_name":"x"}]}',
  );
  expect(response.status).toBe(404);
});

test('malformed JSON is 400 with a message', async () => {
  const response = await postJson(batchPath, '{"events": [');
  expect(response.status).toBe(400);
  expect((await response.json()).message).toContain('not valid JSON');
});

test('a body over 1 MB is 413 with a message', async () => {
  const big = JSON.stringify({ events: [{ event_name: 'x', properties: { pad: 'x'.repeat(1_100_000) } }] });
  const response = await postJson(batchPath, big);
  expect(response.status).toBe(413);
  expect((await response.json()).message).toContain('larger than');
});

test('an unknown /api route is a JSON 404', async () => {
  for (const [method, path] of [
    ['GET', '/api/nothing/here'],
    ['POST', '/api/apps/queen-solana/nothing'],
    ['DELETE', '/api'],
  ] as const) {
    const response = await fetch(`${server.url}${path}`, { method });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect((await response.json()).message).toContain(path);
  }
});

test('the start-up log names the URL, the database, the data folder and the realtime mode', async () => {
  const logs = server.logs();
  expect(logs).toContain(server.url);
  expect(logs).toContain(
    server.database === 'postgres'
      ? `PostgreSQL ${new URL(server.databaseUrl ?? '').host}${new URL(server.databaseUrl ?? '').pathname}`
      : 'PGlite (embedded)',
  );
  expect(logs).toContain(server.dataDir);
  expect(logs).toContain('single instance');
});

test('socket.io accepts WebSocket connections on the SDK path and lets clients join rooms', async () => {
  const socket = io(server.url, {
    path: '/ws-user-apps/socket.io/',
    transports: ['websocket'],
    reconnection: false,
  });
  try {
    await new Promise<void>((resolveConnect, reject) => {
      socket.once('connect', resolveConnect);
      socket.once('connect_error', reject);
    });
    socket.emit('join', `entities:${appId}:Todo`);
    socket.emit('join', `entities:${appId}:Todo`);
    socket.emit('leave', `entities:${appId}:Todo`);
    socket.emit('join', { not: 'a room' });
    // The server answers nothing yet; staying connected shows the events were handled, not fatal.
    await new Promise((wait) => setTimeout(wait, 100));
    expect(socket.connected).toBe(true);
  } finally {
    socket.disconnect();
  }
});
