import { expect, test } from '../../support/test';
import {
  SERVICE_TOKEN,
  api,
  createUser,
  failure,
  serviceClient,
  signUp,
  uniqueEmail,
  userClient,
} from '../../support/auth-helpers';
import { entityOf, startEntitiesServer } from '../../support/entities-helpers';
import { subscribeAll, subscriptionReady, type RealtimeEvent } from '../../support/realtime-client';
import type { RunningServer } from '../../support/server-process';

// The built-in User entity through the generic entity routes, with its own rules: admins and the service
// role see every user, a user only themself, anonymous callers nothing; secrets never show or filter.
// The fixture project's user.jsonc adds `nickname`, `points` and admin-only `vip`.
const appId = 'queen-solana';
type Caller = 'anonymous' | 'self' | 'other' | 'admin' | 'service';
type Client = ReturnType<typeof userClient>;
type Row = Record<string, unknown> & { id: string };

let server: RunningServer;
const made: Client[] = [];
const clients = {} as Record<Exclude<Caller, 'self'>, Pick<Client, 'entities'>>;
let admin: { id: string; email: string; token: string };
let other: { id: string; email: string; token: string };

function client(token?: string): Client {
  const sdk = userClient(server, token);
  made.push(sdk);
  return sdk;
}

async function newUser(label: string, role: 'user' | 'admin' = 'user') {
  const { token, user } = await createUser(server, { email: uniqueEmail(label), role });
  return { ...user, token };
}

const users = (sdk: Pick<Client, 'entities'>) => entityOf(sdk, 'User');

test.beforeAll(async () => {
  server = await startEntitiesServer();
  admin = await newUser('admin', 'admin');
  other = await newUser('other');
  clients.anonymous = client();
  clients.other = client(other.token);
  clients.admin = client(admin.token);
  clients.service = serviceClient(server).asServiceRole;
});

test.afterAll(async () => {
  for (const sdk of made) sdk.cleanup();
  expect(await server.stop()).toBe(0);
});

async function status(call: Promise<unknown>): Promise<number> {
  try {
    await call;
    return 200;
  } catch (error) {
    return (error as { status: number }).status;
  }
}

type Op = 'list' | 'get' | 'update' | 'role' | 'delete' | 'create';
const OPS: Op[] = ['list', 'get', 'update', 'role', 'delete', 'create'];

/** run performs op as caller against a fresh plain user and returns the HTTP status. */
async function run(caller: Caller, op: Op): Promise<number> {
  const target = await newUser(`target-${op}-${caller}`);
  const handler = users(caller === 'self' ? client(target.token) : clients[caller]);
  switch (op) {
    case 'list': {
      const call = handler.filter({ id: target.id }) as Promise<Row[]>;
      const code = await status(call);
      if (code !== 200) return code;
      return (await call).length === 1 ? 200 : 404;
    }
    case 'get':
      return status(handler.get(target.id));
    case 'update':
      return status(handler.update(target.id, { full_name: 'Changed', nickname: 'nick' }));
    case 'role':
      return status(handler.update(target.id, { role: 'admin' }));
    case 'delete':
      return status(handler.delete(target.id));
    case 'create':
      return status(handler.create({ email: uniqueEmail('created'), full_name: 'New' }));
  }
}

// columns: list, get, update, role, delete, create
const EXPECTED: Record<Caller, number[]> = {
  anonymous: [401, 401, 401, 401, 401, 401],
  self: [200, 200, 200, 403, 403, 403],
  other: [404, 404, 404, 404, 404, 403],
  admin: [200, 200, 200, 200, 200, 403],
  service: [200, 200, 200, 200, 200, 403],
};

test('permission table: anonymous, self, another user, admin and the service role on User', async () => {
  const actual = {} as Record<Caller, number[]>;
  for (const caller of Object.keys(EXPECTED) as Caller[]) {
    actual[caller] = [];
    for (const op of OPS) actual[caller].push(await run(caller, op));
  }
  expect(actual).toEqual(EXPECTED);
});

test('a user lists only themself; admins and the service role list, count and page everyone', async () => {
  const me = await newUser('lister');
  const mine = client(me.token);
  const listed = (await users(mine).list()) as Row[];
  expect(listed.map((row) => row.id)).toEqual([me.id]);
  expect(await users(mine).filter({ email: other.email })).toEqual([]);
  expect(await users(mine).count()).toBe(1);

  for (const privileged of [clients.admin, clients.service]) {
    const everyone = (await users(privileged).list('-created_date', 5000)) as Row[];
    const ids = everyone.map((row) => row.id);
    expect(ids).toEqual(expect.arrayContaining([me.id, other.id, admin.id]));
    expect(await users(privileged).count({ role: 'admin' })).toBeGreaterThanOrEqual(1);
    const found = (await users(privileged).filter({ email: me.email }, 'email', 10, 0, ['email'])) as Row[];
    expect(found).toEqual([{ id: me.id, email: me.email }]);
    const page = (await users(privileged).list({ limit: 2, sort: 'created_date' })) as unknown as {
      items: Row[];
      has_more: boolean;
    };
    expect(page.items).toHaveLength(2);
    expect(page.has_more).toBe(true);
  }
  // The name is matched ignoring case, like any entity.
  const lower = await api(server, `/api/apps/${appId}/entities/user/${me.id}`, {
    method: 'GET',
    token: admin.token,
  });
  expect(lower.status).toBe(200);
  expect(lower.json.email).toBe(me.email);
});

test('records look like auth.me() and never carry a secret; me routes keep working', async () => {
  const me = await newUser('shape');
  const mine = client(me.token);
  const viaMe = (await mine.auth.me()) as Row;
  const viaEntity = (await users(serviceClient(server).asServiceRole).get(me.id)) as Row;
  expect(viaEntity).toEqual(viaMe);
  expect(viaEntity).toMatchObject({ id: me.id, email: me.email, role: 'user', app_id: appId });
  for (const row of [viaEntity, ...((await users(clients.admin).list()) as Row[])]) {
    for (const secret of ['password_hash', 'approved', 'custom', 'password']) {
      expect(row).not.toHaveProperty(secret);
    }
  }
  const updated = (await mine.auth.updateMe({ full_name: 'Via Me' })) as Row;
  expect(updated.full_name).toBe('Via Me');
});

test('a query on a secret column is no side channel: only public fields are queryable', async () => {
  const service = users(serviceClient(server).asServiceRole);
  const everyone = (await service.list('-created_date', 5000)) as Row[];
  expect(everyone.length).toBeGreaterThan(1);
  for (const q of [
    { password_hash: { $exists: true } },
    { password_hash: { $regex: '^\\$' } },
    { password_hash: { $ne: null } },
    { approved: true },
    { 'custom.nickname': { $exists: true } },
  ]) {
    expect(await service.filter(q)).toEqual([]);
    expect(await service.count(q)).toBe(0);
  }
  // Sorting by a secret sorts by nothing (the tie-break on id), so the order tells nothing either.
  const byHash = (await service.list('password_hash', 5000)) as Row[];
  const byId = [...everyone].sort((a, b) => (a.id < b.id ? -1 : 1));
  expect(byHash.map((row) => row.id)).toEqual(byId.map((row) => row.id));
  const projected = (await service.list('-created_date', 5, 0, ['password_hash'])) as Row[];
  for (const row of projected) expect(Object.keys(row)).toEqual(['id']);
  const distinct = (await service.list({ limit: 10, distinct: 'password_hash' })) as unknown as {
    items: unknown[];
  };
  expect(distinct.items).toEqual([]);
  const grouped = await failure(service.aggregate({ groupBy: 'password_hash' }));
  expect(grouped.status).toBe(400);
  expect(grouped.message).toContain('not a field of User');
});

test('user.jsonc custom fields show on the record, filter and are validated on every update path', async () => {
  const me = await newUser('custom');
  const mine = client(me.token);
  const saved = (await users(mine).update(me.id, { nickname: 'Ace', points: 3 })) as Row;
  expect(saved).toMatchObject({ id: me.id, nickname: 'Ace', points: 3, email: me.email });
  expect(await mine.auth.me()).toMatchObject({ nickname: 'Ace', points: 3 });
  const found = (await users(clients.admin).filter({ nickname: 'Ace', points: { $gte: 3 } })) as Row[];
  expect(found.map((row) => row.id)).toContain(me.id);
  const viaMe = (await mine.auth.updateMe({ points: 4 })) as Row;
  expect(viaMe).toMatchObject({ nickname: 'Ace', points: 4 });

  const bad = await failure(users(mine).update(me.id, { points: -1 }));
  expect(bad.status).toBe(400);
  expect(bad.message).toContain('points');
  expect((await failure(mine.auth.updateMe({ nickname: 'x'.repeat(41) }))).status).toBe(400);
  const frozen = await failure(users(clients.admin).update(me.id, { email: 'new@example.test' }));
  expect(frozen.status).toBe(400);
  expect(frozen.message).toContain('email');
  const role = await failure(users(mine).update(me.id, { role: 'admin' }));
  expect(role.status).toBe(403);
  expect(role.message).toContain('role');
  const vip = await failure(mine.auth.updateMe({ vip: true }));
  expect(vip.status).toBe(403);
  expect(vip.message).toContain('vip');
  expect(await users(clients.admin).update(me.id, { vip: true })).toMatchObject({ vip: true });
  expect(await mine.auth.me()).toMatchObject({ role: 'user', points: 4, vip: true, email: me.email });
});

test('create, bulk create and batch writes on User are refused with a clear message', async () => {
  const service = users(serviceClient(server).asServiceRole);
  const created = await failure(service.create({ email: uniqueEmail('nope') }));
  expect(created.status).toBe(403);
  expect(created.message).toMatch(/auth\.register/);
  expect(created.message).toMatch(/inviteUser/);
  expect((await failure(service.bulkCreate([{ email: uniqueEmail('nope') }]))).status).toBe(403);
  expect((await failure(service.deleteMany({ role: 'user' }))).status).toBe(400);
  expect((await failure(service.updateMany({ role: 'user' }, { $set: { points: 1 } }))).status).toBe(400);
  expect(await service.count({ email: { $regex: '^nope-' } })).toBe(0);
});

test('the last admin cannot delete or demote themself; the service role may', async () => {
  // A server of its own, so "only admin" is certain.
  const own = await startEntitiesServer();
  try {
    const { token, user } = await createUser(own, { email: uniqueEmail('solo'), role: 'admin' });
    const solo = users(userClient(own, token));
    expect((await failure(solo.delete(user.id))).status).toBe(403);
    expect((await failure(solo.update(user.id, { role: 'user' }))).status).toBe(403);
    const service = users(serviceClient(own).asServiceRole);
    expect(await service.delete(user.id)).toMatchObject({ success: true });
    expect((await failure(service.get(user.id))).status).toBe(404);
  } finally {
    expect(await own.stop()).toBe(0);
  }
});

/** listen subscribes a client of token to Todo and User and waits until its socket is live (a Todo probe). */
async function listen(token?: string) {
  const events = subscribeAll(client(token), ['Todo', 'User']);
  await subscriptionReady(
    () => entityOf(client(SERVICE_TOKEN), 'Todo').create({ title: 'probe' }),
    events.Todo as RealtimeEvent[],
  );
  return events;
}

test('a User update reaches the user themself and admins, never another user', async () => {
  const me = await newUser('rt-self');
  const self = await listen(me.token);
  const byAdmin = await listen(admin.token);
  const byOther = await listen(other.token);
  const anonymous = await listen();

  await users(clients.admin).update(me.id, { nickname: 'Live' });
  await client(me.token).auth.updateMe({ points: 7 });

  const updatesOf = (events: Record<string, RealtimeEvent[]>) =>
    (events.User ?? []).filter((event) => event.id === me.id);
  await expect.poll(() => updatesOf(self).length).toBe(2);
  await expect.poll(() => updatesOf(byAdmin).length).toBe(2);
  expect(updatesOf(self).map((event) => event.type)).toEqual(['update', 'update']);
  expect(updatesOf(self)[1]?.data).toMatchObject({ id: me.id, nickname: 'Live', points: 7 });
  for (const event of [...updatesOf(self), ...updatesOf(byAdmin)]) {
    expect(event.data).not.toHaveProperty('password_hash');
    expect(event.data).not.toHaveProperty('approved');
  }
  // A write others may see proves their sockets were live when the User updates went out.
  await entityOf(client(SERVICE_TOKEN), 'Todo').create({ title: 'after' });
  await expect.poll(() => (byOther.Todo ?? []).some((event) => event.data.title === 'after')).toBe(true);
  await expect.poll(() => (anonymous.Todo ?? []).some((event) => event.data.title === 'after')).toBe(true);
  expect(updatesOf(byOther)).toEqual([]);
  expect(updatesOf(anonymous)).toEqual([]);
});

test('sign-ups, operator writes and invitations reach admins as User events, never another user', async () => {
  const byAdmin = await listen(admin.token);
  const byOther = await listen(other.token);
  const eventsOf = (events: Record<string, RealtimeEvent[]>, id: string) =>
    (events.User ?? []).filter((event) => event.id === id).map((event) => event.type);

  const made = await newUser('rt-operator'); // the operator API's create
  const promoted = await api(server, `/api/apps/queen-solana/admin/users`, {
    method: 'PATCH',
    token: SERVICE_TOKEN,
    body: { email: made.email, role: 'admin' },
  });
  expect(promoted.status).toBe(200);
  const invited = uniqueEmail('rt-invited');
  await (
    client(admin.token) as unknown as { users: { inviteUser(e: string, r: string): Promise<unknown> } }
  ).users.inviteUser(invited, 'user');
  const invitedId = (
    ((await users(clients.service).filter({ email: invited })) as { id: string }[])[0] ?? { id: '' }
  ).id;

  const signedUp = (await signUp(server, uniqueEmail('rt-signup'))).user;

  await expect.poll(() => eventsOf(byAdmin, made.id)).toEqual(['create', 'update']);
  await expect.poll(() => eventsOf(byAdmin, signedUp.id)).toEqual(['create', 'update']);
  await expect.poll(() => eventsOf(byAdmin, invitedId)).toEqual(['create']);
  await entityOf(client(SERVICE_TOKEN), 'Todo').create({ title: 'after operator' });
  await expect
    .poll(() => (byOther.Todo ?? []).some((event) => event.data.title === 'after operator'))
    .toBe(true);
  expect(eventsOf(byOther, made.id)).toEqual([]);
  expect(eventsOf(byOther, invitedId)).toEqual([]);
  expect(eventsOf(byOther, signedUp.id)).toEqual([]);
});
