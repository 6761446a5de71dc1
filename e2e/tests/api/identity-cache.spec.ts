import { expect, test } from '../../support/test';
import { api, createUser, PASSWORD, SERVICE_TOKEN, uniqueEmail } from '../../support/auth-helpers';
import { startEntitiesServer } from '../../support/entities-helpers';
import { DEFAULT_APP_ID } from '../../support/sdk-client';
import { currentDatabaseMode, type RunningServer } from '../../support/server-process';

// Signed-in requests read their user from a short-lived identity cache: a disable, a role change or a
// password change must still take effect on every instance within 1 s, and a profile change must show.
// Two instances on PostgreSQL + Redis (api-postgres with REDIS_URL), and one instance without Redis.

const base = `/api/apps/${DEFAULT_APP_ID}`;
const me = (server: RunningServer, token: string) =>
  api(server, `${base}/entities/User/me`, { method: 'GET', token });
const operator = (server: RunningServer, body: Record<string, unknown>) =>
  api(server, `${base}/admin/users`, { method: 'PATCH', token: SERVICE_TOKEN, body });

/** warm reads me twice on server, so its answer is cached there. */
async function warm(server: RunningServer, token: string) {
  for (let i = 0; i < 2; i++) expect((await me(server, token)).status).toBe(200);
}

/** within polls check on server until it holds and returns how long that took after `since`. */
async function within(since: number, check: () => Promise<boolean>): Promise<number> {
  for (;;) {
    if (await check()) return Date.now() - since;
    if (Date.now() - since > 3000) throw new Error('not seen within 3 s');
    await new Promise((wait) => setTimeout(wait, 10));
  }
}

/** scenarios runs the four changes on `writer` and checks them on `reader` (the same server or another). */
function scenarios(servers: () => { writer: RunningServer; reader: RunningServer }) {
  test('a disabled user is refused within 1 s', async () => {
    const { writer, reader } = servers();
    const email = uniqueEmail('idc-disable');
    const { token } = await createUser(writer, { email });
    await warm(reader, token);
    const since = Date.now();
    expect((await operator(writer, { email, disabled: true })).status).toBe(200);
    expect(await within(since, async () => (await me(reader, token)).status !== 200)).toBeLessThan(1000);
  });

  test('a role change voids older tokens within 1 s, and the new role shows', async () => {
    const { writer, reader } = servers();
    const email = uniqueEmail('idc-role');
    const { token } = await createUser(writer, { email });
    await warm(reader, token);
    const since = Date.now();
    expect((await operator(writer, { email, role: 'admin' })).status).toBe(200);
    expect(await within(since, async () => (await me(reader, token)).status === 401)).toBeLessThan(1000);
    const login = await api(writer, `${base}/auth/login`, { body: { email, password: PASSWORD } });
    const fresh = String(login.json.access_token);
    expect((await me(reader, fresh)).json).toMatchObject({ email, role: 'admin' });
  });

  test('a password change signs older tokens out within 1 s; the new token works', async () => {
    const { writer, reader } = servers();
    const email = uniqueEmail('idc-password');
    const { token, user } = await createUser(writer, { email });
    await warm(reader, token);
    const since = Date.now();
    const changed = await api(writer, `${base}/auth/change-password`, {
      token,
      body: { user_id: user.id, current_password: PASSWORD, new_password: `${PASSWORD} again` },
    });
    expect(changed.status).toBe(200);
    expect(await within(since, async () => (await me(reader, token)).status === 401)).toBeLessThan(1000);
    expect((await me(reader, String(changed.json.access_token))).status).toBe(200);
  });

  test('a profile change shows within 1 s', async () => {
    const { writer, reader } = servers();
    const { token } = await createUser(writer, { email: uniqueEmail('idc-profile') });
    await warm(reader, token);
    const since = Date.now();
    const updated = await api(writer, `${base}/entities/User/me`, {
      method: 'PUT',
      token,
      body: { full_name: 'Renamed Now' },
    });
    expect(updated.status).toBe(200);
    const renamed = async () => (await me(reader, token)).json.full_name === 'Renamed Now';
    expect(await within(since, renamed)).toBeLessThan(1000);
  });
}

test.describe('one instance without Redis', () => {
  let server: RunningServer;
  test.beforeAll(async () => {
    server = await startEntitiesServer();
  });
  test.afterAll(async () => {
    await server?.stop();
  });
  scenarios(() => ({ writer: server, reader: server }));

  test('the change is seen by the very next request (forgotten in process on the write)', async () => {
    const email = uniqueEmail('idc-next');
    const { token } = await createUser(server, { email });
    await warm(server, token);
    expect((await operator(server, { email, disabled: true })).status).toBe(200);
    expect((await me(server, token)).status).toBe(401);
  });
});

test.describe('two instances on PostgreSQL and Redis', () => {
  const redisUrl = process.env.REDIS_URL;
  let a: RunningServer;
  let b: RunningServer;
  test.beforeAll(async () => {
    test.skip(
      currentDatabaseMode() !== 'postgres' || !redisUrl,
      'needs the api-postgres project (DATABASE_URL) and REDIS_URL',
    );
    const env = {
      JWT_SECRET: 'e2e-jwt-secret-0123456789abcdefghijklmnopqrstuvwxyz',
      REDIS_URL: redisUrl ?? '',
    };
    a = await startEntitiesServer({ env });
    b = await startEntitiesServer({ env, databaseUrl: a.databaseUrl });
  });
  test.afterAll(async () => {
    await b?.stop();
    await a?.stop();
  });
  scenarios(() => ({ writer: a, reader: b }));

  test('the change reaches B through Redis, well before a cached row would expire', async () => {
    const email = uniqueEmail('idc-redis');
    const { token } = await createUser(a, { email });
    await warm(b, token);
    const since = Date.now();
    expect((await operator(a, { email, disabled: true })).status).toBe(200);
    // B's row was cached a moment ago and would live IDENTITY_TTL_MS (500 ms) without the message.
    expect(await within(since, async () => (await me(b, token)).status !== 200)).toBeLessThan(250);
  });
});
