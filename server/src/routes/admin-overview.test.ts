// The console's admin endpoints through the one caller guard: the app's admins and the service role get
// the overview and the secrets; a plain user 403, no token 401. An admin's change is audited as theirs.
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_APP_ID, TEST_SERVICE_TOKEN, useTestPlatform } from '../test-support/build-test-platform';

const test = useTestPlatform();
const tokens: Record<'admin' | 'user', string> = { admin: '', user: '' };
const PASSWORD = 'correct horse battery';

async function makeUser(role: 'admin' | 'user') {
  const email = `${role}@overview.test`;
  const created = await test.app.inject({
    method: 'POST',
    url: `/api/apps/${TEST_APP_ID}/admin/users`,
    headers: { authorization: `Bearer ${TEST_SERVICE_TOKEN}` },
    payload: { email, password: PASSWORD, role },
  });
  expect(created.statusCode).toBe(201);
  const login = await test.app.inject({
    method: 'POST',
    url: `/api/apps/${TEST_APP_ID}/auth/login`,
    payload: { email, password: PASSWORD },
  });
  return login.json<{ access_token: string }>().access_token;
}

beforeAll(async () => {
  tokens.admin = await makeUser('admin');
  tokens.user = await makeUser('user');
});

const overview = (token?: string) =>
  test.app.inject({
    url: `/api/apps/${TEST_APP_ID}/admin/overview`,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });

describe('GET /admin/overview', () => {
  it('answers the app admin and the service role, with the figures', async () => {
    for (const token of [tokens.admin, TEST_SERVICE_TOKEN]) {
      const response = await overview(token);
      expect(response.statusCode).toBe(200);
      const body = response.json<{
        app: { id: string; name: string };
        counts: { users: number; entities: { name: string; records: number }[] };
        database: { engine: string; detail: string };
      }>();
      expect(body.app).toMatchObject({ id: TEST_APP_ID, name: 'Route tests' });
      expect(body.counts.users).toBe(2);
      expect(body.counts.entities).toContainEqual({ name: 'Todo', records: 0 });
      expect(body.database).toEqual({ engine: 'pglite', detail: 'PGlite (test)' });
      expect(
        response.json<{ environment: { variable: string }[] }>().environment.map((e) => e.variable),
      ).toEqual(
        expect.arrayContaining(['PUBLIC_URL', 'DATABASE_URL', 'SMTP_URL', 'REDIS_URL', 'FILE_STORAGE']),
      );
    }
  });

  it('refuses a plain user (403) and an anonymous caller (401)', async () => {
    expect((await overview(tokens.user)).statusCode).toBe(403);
    expect((await overview()).statusCode).toBe(401);
  });
});

describe('the secrets endpoints for the console', () => {
  const secrets = (token: string | undefined, method: 'GET' | 'PUT' | 'DELETE', name = '') =>
    test.app.inject({
      method,
      url: `/api/apps/${TEST_APP_ID}/admin/secrets${name ? `/${name}` : ''}`,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(method === 'PUT' ? { payload: { value: 'sk-never-shown' } } : {}),
    });

  it('lets an admin set, list (names and when set) and delete, audited as that admin', async () => {
    expect((await secrets(tokens.admin, 'PUT', 'CONSOLE_KEY')).statusCode).toBe(200);
    const listed = await secrets(tokens.admin, 'GET');
    expect(listed.body).not.toContain('sk-never-shown');
    const { names, secrets: rows } = listed.json<{
      names: string[];
      secrets: { name: string; set_at: string }[];
    }>();
    expect(names).toEqual(['CONSOLE_KEY']);
    expect(Date.parse(rows[0]?.set_at ?? '')).toBeGreaterThan(Date.now() - 60_000);
    expect((await secrets(tokens.admin, 'DELETE', 'CONSOLE_KEY')).statusCode).toBe(200);
    const audit = await test.app.inject({
      url: `/api/apps/${TEST_APP_ID}/admin/audit-log`,
      headers: { authorization: `Bearer ${TEST_SERVICE_TOKEN}` },
    });
    expect(audit.body).not.toContain('sk-never-shown');
    const items = audit.json<{ items: { action: string; actor: { kind: string; email?: string } }[] }>()
      .items;
    expect(items.slice(0, 2).map((item) => [item.action, item.actor])).toEqual([
      ['secret.delete', expect.objectContaining({ kind: 'admin', email: 'admin@overview.test' })],
      ['secret.set', expect.objectContaining({ kind: 'admin', email: 'admin@overview.test' })],
    ]);
  });

  it('refuses a plain user (403) and an anonymous caller (401) on every secrets endpoint', async () => {
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const name = method === 'GET' ? '' : 'ANY_NAME';
      expect((await secrets(tokens.user, method, name)).statusCode, method).toBe(403);
      expect((await secrets(undefined, method, name)).statusCode, method).toBe(401);
    }
  });
});

describe('PUT /admin/settings for the console', () => {
  const put = (token: string | undefined, payload: object) =>
    test.app.inject({
      method: 'PUT',
      url: `/api/apps/${TEST_APP_ID}/admin/settings`,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      payload,
    });

  it('lets an admin change visibility and self-sign-up, audited as that admin', async () => {
    const changed = await put(tokens.admin, { visibility: 'private_with_login', self_signup: false });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ public_settings: 'private_with_login', self_signup: false });
    const audit = await test.app.inject({
      url: `/api/apps/${TEST_APP_ID}/admin/audit-log`,
      headers: { authorization: `Bearer ${TEST_SERVICE_TOKEN}` },
    });
    const items = audit.json<{ items: { action: string; actor: { kind: string; email?: string } }[] }>()
      .items;
    expect(items[0]).toMatchObject({
      actor: expect.objectContaining({ kind: 'admin', email: 'admin@overview.test' }),
    });
    expect(items[0]?.action).toMatch(/settings/);
  });

  it('refuses a plain user (403), an anonymous caller (401) and a bad visibility (400)', async () => {
    expect((await put(tokens.user, { self_signup: true })).statusCode).toBe(403);
    expect((await put(undefined, { self_signup: true })).statusCode).toBe(401);
    expect((await put(tokens.admin, { visibility: 'everyone' })).statusCode).toBe(400);
  });
});

describe('POST /admin/mail/test for the console', () => {
  const send = (token?: string) =>
    test.app.inject({
      method: 'POST',
      url: `/api/apps/${TEST_APP_ID}/admin/mail/test`,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });

  it('mails the signed-in admin and audits it without the content', async () => {
    const sent = await send(tokens.admin);
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toMatchObject({ to: 'admin@overview.test' });
    const audit = await test.app.inject({
      url: `/api/apps/${TEST_APP_ID}/admin/audit-log`,
      headers: { authorization: `Bearer ${TEST_SERVICE_TOKEN}` },
    });
    const latest = audit.json<{ items: { action: string; target: string; after: unknown }[] }>().items[0];
    expect(latest).toMatchObject({ action: 'mail.test', target: 'user:admin@overview.test' });
    expect(JSON.stringify(latest)).not.toContain('If you read it');
  });

  it('refuses a plain user (403), an anonymous caller (401) and the service role, which has no address (400)', async () => {
    expect((await send(tokens.user)).statusCode).toBe(403);
    expect((await send()).statusCode).toBe(401);
    expect((await send(TEST_SERVICE_TOKEN)).statusCode).toBe(400);
  });
});

describe('GET /admin/users for the console', () => {
  const list = (token: string | undefined, query = '') =>
    test.app.inject({
      url: `/api/apps/${TEST_APP_ID}/admin/users${query}`,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
  type Page = { users: { email: string; role: string }[]; total: number; page: number; page_size: number };

  it('answers a page, searched, sorted and filtered, with the total', async () => {
    const all = await list(tokens.admin, '?sort=-email');
    expect(all.statusCode).toBe(200);
    expect(all.json<Page>()).toMatchObject({ total: 2, page: 1, page_size: 50 });
    expect(all.json<Page>().users.map((user) => user.email)).toEqual([
      'user@overview.test',
      'admin@overview.test',
    ]);
    expect(all.body).not.toContain('password');
    const found = (await list(TEST_SERVICE_TOKEN, '?q=ADMIN@')).json<Page>();
    expect(found.users.map((user) => user.email)).toEqual(['admin@overview.test']);
    expect((await list(tokens.admin, '?role=user')).json<Page>().total).toBe(1);
    expect((await list(tokens.admin, '?status=disabled')).json<Page>().total).toBe(0);
    // % and _ are matched literally, not as wildcards.
    expect((await list(tokens.admin, '?q=%25')).json<Page>().total).toBe(0);
    expect((await list(tokens.admin, '?q=_')).json<Page>().total).toBe(0);
  });

  it('refuses a plain user (403), an anonymous caller (401) and out-of-bounds input (400)', async () => {
    expect((await list(tokens.user)).statusCode).toBe(403);
    expect((await list(undefined)).statusCode).toBe(401);
    expect((await list(tokens.admin, '?page=10001')).statusCode).toBe(400);
    expect((await list(tokens.admin, `?q=${'a'.repeat(201)}`)).statusCode).toBe(400);
    expect((await list(tokens.admin, '?sort=password_hash')).statusCode).toBe(400);
  });
});
