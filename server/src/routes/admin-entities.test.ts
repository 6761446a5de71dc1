// The console's Data endpoints: the entity list (counts, schema, rules) and "View as user", which must give
// exactly what that user's own list call gives; admins and the service role only, params checked.
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_APP_ID, TEST_SERVICE_TOKEN, useTestPlatform } from '../test-support/build-test-platform';

// Owner-only rows, and a `cost` only admins read.
const LEDGER = {
  name: 'Ledger',
  type: 'object',
  properties: {
    title: { type: 'string' },
    cost: { type: 'number', rls: { read: { user_condition: { role: 'admin' } } } },
  },
  required: ['title'],
  rls: { read: { $or: [{ created_by: '{{user.email}}' }, { user_condition: { role: 'admin' } }] } },
};

const test = useTestPlatform({}, { entities: { 'ledger.jsonc': LEDGER } });
const PASSWORD = 'correct horse battery';
const people: Record<'admin' | 'alice' | 'bob', { token: string; id: string }> = {
  admin: { token: '', id: '' },
  alice: { token: '', id: '' },
  bob: { token: '', id: '' },
};
const base = `/api/apps/${TEST_APP_ID}`;
const bearer = (token?: string) => (token ? { authorization: `Bearer ${token}` } : {});

async function makeUser(name: keyof typeof people) {
  const email = `${name}@data.test`;
  const role = name === 'admin' ? 'admin' : 'user';
  const created = await test.app.inject({
    method: 'POST',
    url: `${base}/admin/users`,
    headers: bearer(TEST_SERVICE_TOKEN),
    payload: { email, password: PASSWORD, role },
  });
  expect(created.statusCode).toBe(201);
  const login = await test.app.inject({
    method: 'POST',
    url: `${base}/auth/login`,
    payload: { email, password: PASSWORD },
  });
  const answer = login.json<{ access_token: string; user: { id: string } }>();
  people[name] = { token: answer.access_token, id: answer.user.id };
}

beforeAll(async () => {
  for (const name of ['admin', 'alice', 'bob'] as const) await makeUser(name);
  for (const [name, n] of [
    ['alice', 3],
    ['bob', 2],
  ] as const) {
    for (let i = 0; i < n; i++) {
      const made = await test.app.inject({
        method: 'POST',
        url: `${base}/entities/Ledger`,
        headers: bearer(people[name].token),
        payload: { title: `${name} ${i}`, cost: i + 1 },
      });
      expect(made.statusCode).toBe(201);
    }
  }
});

const get = (url: string, token?: string) =>
  test.app.inject({ url: `${base}${url}`, headers: bearer(token) });

describe('GET /admin/entities', () => {
  it('lists each entity with its schema and rules, and the counts apart', async () => {
    const response = await get('/admin/entities', people.admin.token);
    expect(response.statusCode).toBe(200);
    const { entities } = response.json<{
      entities: { name: string; schema: object; rules: unknown }[];
    }>();
    const ledger = entities.find((entity) => entity.name === 'Ledger');
    expect(ledger).toMatchObject({ schema: { required: ['title'] } });
    expect(ledger?.rules).toEqual({ rls: LEDGER.rls, fields: { cost: LEDGER.properties.cost.rls } });
    expect(entities.find((entity) => entity.name === 'Todo')).toMatchObject({ rules: null });
    // The counts come apart (they read every record): User counts the accounts.
    const counts = await get('/admin/entities/counts', people.admin.token);
    expect(counts.json<{ counts: Record<string, number> }>().counts).toMatchObject({
      Ledger: 5,
      Todo: 0,
      User: 3,
    });
    expect((await get('/admin/entities/counts', people.alice.token)).statusCode).toBe(403);
    expect((await get('/admin/entities/counts')).statusCode).toBe(401);
    expect((await get('/admin/entities', TEST_SERVICE_TOKEN)).statusCode).toBe(200);
  });

  it('refuses a plain user (403) and an anonymous caller (401)', async () => {
    expect((await get('/admin/entities', people.alice.token)).statusCode).toBe(403);
    expect((await get('/admin/entities')).statusCode).toBe(401);
  });
});

describe('GET /admin/entities/:entity/view-as/:userId', () => {
  const viewAs = (user: string, query = '', token = people.admin.token, entity = 'Ledger') =>
    get(`/admin/entities/${entity}/view-as/${user}?sort=title${query}`, token);

  it("answers exactly the user's own list: their rows, without the fields hidden from them", async () => {
    const seen = await viewAs(people.alice.id);
    expect(seen.statusCode).toBe(200);
    const own = await get('/entities/Ledger?sort=title', people.alice.token);
    expect(seen.json()).toEqual(own.json());
    const rows = seen.json<Record<string, unknown>[]>();
    expect(rows.map((row) => row.title)).toEqual(['alice 0', 'alice 1', 'alice 2']);
    expect(rows.every((row) => !('cost' in row))).toBe(true);
    // The admin sees everything, cost included: the admin's own rules are not the view's.
    const admins = await viewAs(people.admin.id);
    expect(admins.json<unknown[]>()).toHaveLength(5);
    expect(admins.json<{ cost?: number }[]>()[0]?.cost).toBe(1);
  });

  it('pages, filters and sorts like the list route', async () => {
    const query = encodeURIComponent(JSON.stringify({ title: { $ne: 'alice 0' } }));
    const seen = await viewAs(people.alice.id, `&limit=1&skip=1&q=${query}`);
    expect(seen.json<{ title: string }[]>().map((row) => row.title)).toEqual(['alice 2']);
  });

  it('refuses bad params (400), unknown entity or user (404), others (401/403)', async () => {
    expect((await viewAs(people.alice.id, '&limit=5001')).statusCode).toBe(400);
    expect((await viewAs(people.alice.id, '&q=not-json')).statusCode).toBe(400);
    expect((await viewAs(people.alice.id, '&skip=-1')).statusCode).toBe(400);
    expect((await viewAs(people.alice.id, '', people.admin.token, 'Nope')).statusCode).toBe(404);
    expect((await viewAs('no-such-user')).statusCode).toBe(404);
    expect((await viewAs(people.alice.id, '', people.bob.token)).statusCode).toBe(403);
    expect((await get(`/admin/entities/Ledger/view-as/${people.alice.id}`)).statusCode).toBe(401);
  });

  it("refuses a disabled user's view (403), as their own token is refused", async () => {
    const disabled = await test.app.inject({
      method: 'PATCH',
      url: `${base}/admin/users`,
      headers: bearer(TEST_SERVICE_TOKEN),
      payload: { email: 'bob@data.test', disabled: true },
    });
    expect(disabled.statusCode).toBe(200);
    const seen = await viewAs(people.bob.id);
    expect(seen.statusCode).toBe(403);
    expect(seen.json<{ message: string }>().message).toContain('disabled');
  });
});
