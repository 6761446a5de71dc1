import { expect, test } from '../../support/test';
import {
  AUTH_ENV,
  createUser,
  failure,
  serviceClient,
  uniqueEmail,
  userClient,
} from '../../support/auth-helpers';
import { DEFAULT_APP_ID } from '../../support/sdk-client';
import { removeServerData, startServer, type RunningServer } from '../../support/server-process';

// Page logs (`appLogs`, docs/protocol-notes.md, "Page logs") through the official SDK, and the
// `@base44/vite-plugin` 1.0.10 beacon (`/app-logs/…` without `/api`, no token) through fetch.
// Runs on PGlite in `api` and on PostgreSQL in `api-postgres`.
const appId = DEFAULT_APP_ID;
let server: RunningServer;
let admin: { token: string; user: { id: string } };
let member: { token: string; user: { id: string } };

type LogItem = { page: string; user_id: string | null; referrer: string | null; created_date: string };
type LogPage = { items: LogItem[]; has_more: boolean };

test.beforeAll(async () => {
  server = await startServer({ env: AUTH_ENV });
  admin = await createUser(server, { email: uniqueEmail('logs-admin'), role: 'admin' });
  member = await createUser(server, { email: uniqueEmail('logs-member') });
});

test.afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

/** legacyBeacon is exactly what the vite plugin 1.0.10 sends on a navigation. */
function legacyBeacon(target: RunningServer, page: string) {
  return fetch(`${target.url}/app-logs/${appId}/log-user-in-app/${page}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
  });
}

test('logUserInApp stores anonymous and signed-in views; the legacy beacon too', async () => {
  await userClient(server).appLogs.logUserInApp('Home Page');
  await userClient(server, member.token).appLogs.logUserInApp('Dashboard');
  expect((await legacyBeacon(server, 'home')).status).toBe(204);

  const logs = (await serviceClient(server).asServiceRole.appLogs.fetchLogs({ limit: 3 })) as LogPage;
  expect(logs.items.map((item) => [item.page, item.user_id])).toEqual([
    ['home', null],
    ['Dashboard', member.user.id],
    ['Home Page', null],
  ]);
  expect(Date.parse(logs.items[0]?.created_date ?? '')).toBeGreaterThan(Date.now() - 60_000);
});

test('fetchLogs filters by page and user and pages with limit/skip; admins and the service role read', async () => {
  const asAdmin = userClient(server, admin.token).appLogs;
  const mine = (await asAdmin.fetchLogs({ user_id: member.user.id })) as LogPage;
  expect(mine.items.map((item) => item.page)).toEqual(['Dashboard']);
  const home = (await asAdmin.fetchLogs({ page: 'Home Page' })) as LogPage;
  expect(home.items).toHaveLength(1);
  const second = (await asAdmin.fetchLogs({ limit: 1, skip: 1 })) as LogPage;
  expect(second).toMatchObject({ has_more: true, items: [{ page: 'Dashboard' }] });
  const future = (await asAdmin.fetchLogs({ from: new Date(Date.now() + 60_000).toISOString() })) as LogPage;
  expect(future.items).toEqual([]);
});

test('getStats counts views and distinct visitors per page and per day', async () => {
  await userClient(server).appLogs.logUserInApp('Dashboard');
  const stats = (await serviceClient(server).asServiceRole.appLogs.getStats({ page: 'Dashboard' })) as {
    views: number;
    visitors: number;
    pages: { page: string; views: number; visitors: number }[];
    days: { day: string; views: number; visitors: number }[];
  };
  // Same IP, same user agent, same day: one visitor (signed in or not).
  expect(stats).toMatchObject({
    views: 2,
    visitors: 1,
    pages: [{ page: 'Dashboard', views: 2, visitors: 1 }],
  });
  expect(stats.days).toEqual([{ day: new Date().toISOString().slice(0, 10), views: 2, visitors: 1 }]);
});

test('reads are refused to anonymous callers (401) and to users who are not admins (403)', async () => {
  expect((await failure(userClient(server).appLogs.fetchLogs())).status).toBe(401);
  expect((await failure(userClient(server, member.token).appLogs.fetchLogs())).status).toBe(403);
  expect((await failure(userClient(server, member.token).appLogs.getStats())).status).toBe(403);
});

test('bad input is refused: a long page name, a large body, an unknown app', async () => {
  expect((await failure(userClient(server).appLogs.logUserInApp('x'.repeat(201)))).status).toBe(400);
  const big = await fetch(`${server.url}/api/app-logs/${appId}/log-user-in-app/Big`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ pad: 'x'.repeat(4096) }),
  });
  expect(big.status).toBe(413);
  expect(
    (await fetch(`${server.url}/api/app-logs/nope/log-user-in-app/Home`, { method: 'POST' })).status,
  ).toBe(404);
});

test('views acknowledged before a clean stop are stored (the buffer is written on SIGTERM)', async () => {
  // A flush interval far longer than the test: only the shutdown can write these views.
  const first = await startServer({ env: { ...AUTH_ENV, APP_LOG_FLUSH_MS: '600000' }, keepData: true });
  try {
    for (const page of ['One', 'Two', 'Three']) expect((await legacyBeacon(first, page)).status).toBe(204);
    expect(await first.stop()).toBe(0);
    const restarted = await startServer({
      env: AUTH_ENV,
      dataDir: first.dataDir,
      ...(first.databaseUrl ? { databaseUrl: first.databaseUrl } : {}),
    });
    try {
      const logs = (await serviceClient(restarted).asServiceRole.appLogs.fetchLogs()) as LogPage;
      expect(logs.items.map((item) => item.page)).toEqual(['Three', 'Two', 'One']);
    } finally {
      expect(await restarted.stop()).toBe(0);
    }
  } finally {
    await removeServerData(first);
  }
});
