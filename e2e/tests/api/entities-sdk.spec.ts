import { expect, test } from '../../support/test';
import { api, createUser, failure, serviceClient, uniqueEmail, userClient } from '../../support/auth-helpers';
import { brokenProject, entityOf, postOversized, startEntitiesServer } from '../../support/entities-helpers';
import { removeServerData, startServer, type RunningServer } from '../../support/server-process';

// The entity API through the official SDK on the fixture project: the calls an app makes, their failure
// paths, the limits, the seed and a broken project.
const appId = 'queen-solana';
const base = `/api/apps/${appId}/entities`;
let server: RunningServer;

test.beforeAll(async () => {
  server = await startEntitiesServer({ keepData: true });
});

test.afterAll(async () => {
  expect(await server.stop()).toBe(0);
  await removeServerData(server);
});

type Todo = Record<string, unknown> & { id: string; title?: string };

test('create, get, update (merge), list, filter, count and delete a Todo', async () => {
  const { token, user } = await createUser(server, { email: uniqueEmail('todo') });
  const todos = entityOf(userClient(server, token), 'Todo');
  const created = (await todos.create({
    title: 'Buy milk',
    name: 'milk',
    id: 'client-id',
    created_by: 'forged@x.test',
    created_date: '2000-01-01T00:00:00.000Z',
  })) as Todo;
  expect(created).toMatchObject({
    title: 'Buy milk',
    active: true,
    completed: false,
    created_by: user.email,
  });
  expect(created.created_by_id).toBe(user.id);
  expect(created.id).not.toBe('client-id');
  expect(created.created_date).not.toBe('2000-01-01T00:00:00.000Z');
  expect(await todos.get(created.id)).toEqual(created);

  const updated = (await todos.update(created.id, { completed: true, id: 'other' })) as Todo;
  expect(updated).toMatchObject({ id: created.id, title: 'Buy milk', name: 'milk', completed: true });
  expect(String(updated.updated_date) >= String(created.updated_date)).toBe(true);

  const mine = (await todos.filter({ created_by: user.email, title: 'Buy milk' })) as Todo[];
  expect(mine.map((todo) => todo.id)).toEqual([created.id]);
  const projected = (await todos.filter({ id: created.id }, '-created_date', 5, 0, ['title'])) as Todo[];
  expect(projected).toEqual([{ id: created.id, title: 'Buy milk' }]);
  expect(Array.isArray(await todos.list())).toBe(true);
  expect(await todos.count({ created_by: user.email })).toBe(1);

  expect(await todos.delete(created.id)).toEqual({ success: true });
  expect((await failure(todos.get(created.id))).status).toBe(404);
});

test('bulkCreate, operators, sort, paging and deleteMany', async () => {
  const { token } = await createUser(server, { email: uniqueEmail('bulk') });
  const todos = entityOf(userClient(server, token), 'Todo');
  const batch = `b${Date.now()}`;
  const made = (await todos.bulkCreate(
    Array.from({ length: 6 }, (_, i) => ({
      name: batch,
      title: `t${i}`,
      priority: (i % 5) + 1,
      tags: i % 2 ? ['odd'] : ['even'],
    })),
  )) as Todo[];
  expect(made.map((todo) => todo.title)).toEqual(['t0', 't1', 't2', 't3', 't4', 't5']);

  const titles = async (query: object, sort?: string, limit?: number, skip?: number) =>
    ((await todos.filter({ name: batch, ...query }, sort, limit, skip)) as Todo[]).map((todo) => todo.title);
  expect(await titles({ priority: { $gte: 4 } }, 'title')).toEqual(['t3', 't4']);
  expect(await titles({ tags: 'odd' }, '-title')).toEqual(['t5', 't3', 't1']);
  expect(await titles({ $or: [{ title: 't0' }, { title: { $in: ['t2', 't9'] } }] }, 'title')).toEqual([
    't0',
    't2',
  ]);
  expect(await titles({ title: { $regex: '^T[45]$', $options: 'i' } }, 'title')).toEqual(['t4', 't5']);
  expect(await titles({}, 'title', 2, 2)).toEqual(['t2', 't3']);
  expect(await titles({}, 'priority,-title')).toEqual(['t5', 't0', 't1', 't2', 't3', 't4']);
  // The SDK's own e2e tests send sort=10.
  expect(await titles({}, 10 as unknown as string)).toHaveLength(6);

  expect(await todos.deleteMany({ name: batch, tags: 'even' })).toEqual({ success: true, deleted: 3 });
  expect(await todos.count({ name: batch })).toBe(3);
});

test('failures: unknown entity, unknown id, validation, bad q, bad body', async () => {
  const client = userClient(server);
  const unknown = await failure(entityOf(client, 'NonExistentEntity').list());
  expect(unknown.name).toBe('Base44Error');
  expect(unknown.status).toBe(404);
  expect((await failure(entityOf(client, 'Todo').get('invalid-id'))).status).toBe(404);

  const invalid = await failure(entityOf(client, 'Todo').create({ title: 'x', priority: 9 }));
  expect(invalid.status).toBe(422);
  expect(invalid.message).toContain('priority');
  expect((await failure(entityOf(client, 'Todo').create({ meta: { score: 'x' } }))).message).toContain(
    'meta.score',
  );
  expect((await failure(entityOf(client, 'Todo').create({ contact: 'not-an-email' }))).message).toContain(
    'contact',
  );

  const badOperator = await failure(entityOf(client, 'Todo').filter({ title: { $where: 'x' } }));
  expect(badOperator.status).toBe(400);
  expect(badOperator.message).toContain('$where');
  expect((await api(server, `${base}/Todo?q=%7Bnot-json`, { method: 'GET' })).status).toBe(400);
  expect((await api(server, `${base}/Todo?q=[1]`, { method: 'GET' })).status).toBe(400);
  expect((await api(server, `${base}/Todo?limit=-1`, { method: 'GET' })).status).toBe(400);
  expect((await api(server, `${base}/Todo`, { rawBody: '{"title":' })).status).toBe(400);
  expect((await api(server, `${base}/Todo/bulk`, { body: { title: 'x' } })).status).toBe(400);
  expect((await api(server, `${base}/Todo`, { method: 'DELETE', body: [1] })).status).toBe(400);
  expect((await api(server, `/api/apps/no-such-app/entities/Todo`, { method: 'GET' })).status).toBe(404);
  expect((await api(server, `${base}/Todo`, { method: 'GET', token: 'forged' })).status).toBe(401);
});

test('empty optional inputs of a form: "" in a date, email, uri or enum field is stored as sent', async () => {
  const todos = entityOf(userClient(server), 'Todo');
  const blank = { due: '', contact: '', link: '', status: '' };
  const created = (await todos.create({ title: 'filled in manually', ...blank })) as Todo;
  expect(created).toMatchObject(blank);
  expect(await todos.get(created.id)).toMatchObject(blank);
  expect(await todos.update(created.id, { due: '2026-11-27' })).toMatchObject({ due: '2026-11-27' });
  const wrong = await failure(todos.update(created.id, { due: '2024-13-45' }));
  expect(wrong.status).toBe(422);
  expect(wrong.message).toContain('due');
});

test('limits: a list is capped, oversized bodies get 413, bulk over 1000 records gets 400', async () => {
  const service = entityOf(serviceClient(server).asServiceRole, 'Todo');
  const many = Array.from({ length: 1001 }, (_, i) => ({ name: 'limit', title: `l${i}` }));
  const tooMany = await failure(service.bulkCreate(many));
  expect(tooMany.status).toBe(400);
  expect(tooMany.message).toContain('1000');
  await service.bulkCreate(many.slice(0, 1000));
  await service.bulkCreate(many.slice(0, 100));
  expect(((await service.filter({ name: 'limit' })) as Todo[]).length).toBe(1000);
  expect(((await service.filter({ name: 'limit' }, 'title', 1050)) as Todo[]).length).toBe(1050);

  const url = `${server.url}${base}`;
  expect((await postOversized(`${url}/Todo`, 1024 * 1024 + 10)).status).toBe(413);
  const response = await postOversized(`${url}/Todo/bulk`, 5 * 1024 * 1024 + 1);
  expect(response.status).toBe(413);
  expect(response.text).toContain('5 MB');
});

test('seeds load once: a deleted seed record stays deleted after a restart', async () => {
  const todos = entityOf(serviceClient(server).asServiceRole, 'Todo');
  expect(await todos.get('seed-todo-2')).toMatchObject({ title: 'Seeded two', completed: true });
  await todos.delete('seed-todo-1');
  const { dataDir, databaseUrl } = server;
  expect(await server.stop()).toBe(0);
  server = await startEntitiesServer({ dataDir, keepData: true, ...(databaseUrl ? { databaseUrl } : {}) });
  const restarted = entityOf(serviceClient(server).asServiceRole, 'Todo');
  expect((await failure(restarted.get('seed-todo-1'))).status).toBe(404);
  expect(await restarted.get('seed-todo-2')).toMatchObject({ title: 'Seeded two' });
});

test.describe('a broken project stops start-up naming the file', () => {
  for (const [file, content, problem] of [
    [
      'entities/todo.jsonc',
      '{ "name": "Todo", "properties": { "x": { "type": "strin" } } }',
      /entities\/todo\.jsonc: .*properties\.x\.type/,
    ],
    ['entities/note.jsonc', '{ "name": "Note", ', /entities\/note\.jsonc: invalid JSONC/],
    ['seed/todo.jsonc', '[{ "priority": 99 }]', /seed\/todo\.jsonc: record 0: Error in field priority/],
    // config.jsonc may leave the name out (it then comes from package.json or the folder), not give a bad one.
    ['config.jsonc', '{ "name": 42 }', /config\.jsonc: name/],
  ] as const) {
    test(file, async () => {
      const dir = await brokenProject(file, content);
      const outcome = await startServer({ env: { PROJECT_DIR: dir } }).then(
        async (started) => {
          await started.stop();
          return 'started';
        },
        (error: Error) => error.message,
      );
      expect(outcome).toMatch(problem);
    });
  }
});
