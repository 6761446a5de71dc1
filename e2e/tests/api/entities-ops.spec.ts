import { expect, forThisFile, test } from '../../support/test';
import { api, createUser, failure, serviceClient, uniqueEmail, userClient } from '../../support/auth-helpers';
import { entityOf } from '../../support/entities-helpers';
import type { RunningServer } from '../../support/server-process';

// The batch entity operations through the official SDK: updateMany, upsert and bulkUpdate, with their
// rules (update rule in SQL, field-level write rules), validation and failure paths.
const appId = 'queen-solana';
const base = `/api/apps/${appId}/entities`;
type Row = Record<string, unknown> & { id: string };

let server: RunningServer;

test.beforeAll(async ({ sharedEntitiesServer }) => {
  server = forThisFile(sharedEntitiesServer);
});

test('updateMany applies every operator to the matching records and reports has_more', async () => {
  const todos = entityOf(serviceClient(server).asServiceRole, 'Todo');
  const batch = `um${Date.now()}`;
  await todos.bulkCreate([
    { name: batch, title: 'a', priority: 1, tags: ['x'], meta: { score: 1 }, description: 'd' },
    { name: batch, title: 'b', priority: 2, tags: ['y'], meta: { score: 2 }, description: 'd' },
    { name: `${batch}-other`, title: 'c', priority: 1 },
  ]);
  const result = await todos.updateMany(
    { name: batch },
    {
      $set: { status: 'doing' },
      $inc: { priority: 1 },
      $mul: { 'meta.score': 10 },
      $addToSet: { tags: { $each: ['x', 'z'] } },
      $unset: { description: '' },
      $currentDate: { code_date: true },
      $rename: { title: 'name_copy' },
    },
  );
  expect(result).toEqual({ success: true, updated: 2, has_more: false });
  const rows = (await todos.filter({ name: batch }, 'priority')) as Row[];
  expect(rows.map((row) => [row.status, row.priority, (row.meta as Row).score, row.tags])).toEqual([
    ['doing', 2, 10, ['x', 'z']],
    ['doing', 3, 20, ['y', 'x', 'z']],
  ]);
  expect(rows.every((row) => !('description' in row) && !('title' in row))).toBe(true);
  expect(((await todos.filter({ name: `${batch}-other` })) as Row[])[0]).toMatchObject({ priority: 1 });

  await todos.updateMany({ name: batch }, { $push: { tags: 'p' }, $min: { priority: 2 } });
  await todos.updateMany(
    { name: batch },
    { $pull: { tags: { $in: ['x', 'y'] } }, $max: { 'meta.score': 15 } },
  );
  const after = (await todos.filter({ name: batch }, 'meta.score')) as Row[];
  expect(after.map((row) => [row.priority, row.tags, (row.meta as Row).score])).toEqual([
    [2, ['z', 'p'], 15],
    [2, ['z', 'p'], 20],
  ]);

  const many = `${batch}-many`;
  await todos.bulkCreate(Array.from({ length: 501 }, (_, i) => ({ name: many, title: `m${i}` })));
  expect(
    await todos.updateMany({ name: many, status: { $ne: 'done' } }, { $set: { status: 'done' } }),
  ).toEqual({ success: true, updated: 500, has_more: true });
  expect(
    await todos.updateMany({ name: many, status: { $ne: 'done' } }, { $set: { status: 'done' } }),
  ).toEqual({ success: true, updated: 1, has_more: false });
});

test('updateMany failures: unknown operator 400, schema 422 (nothing written), field rule 403, update rule in SQL', async () => {
  const service = entityOf(serviceClient(server).asServiceRole, 'Todo');
  const batch = `uf${Date.now()}`;
  await service.bulkCreate([
    { name: batch, title: 'a', priority: 4 },
    { name: batch, title: 'b', priority: 5 },
  ]);
  const unknown = await failure(service.updateMany({ name: batch }, { $where: { x: 1 } }));
  expect(unknown.status).toBe(400);
  expect(unknown.message).toContain('$where');
  expect((await failure(service.updateMany({ name: batch }, { $inc: { priority: 'x' } }))).status).toBe(400);
  expect(
    (await failure(service.updateMany({ name: batch }, { $set: { priority: 1 }, $inc: { priority: 1 } })))
      .status,
  ).toBe(400);
  expect(
    (await failure(service.updateMany({ name: batch }, { $set: { __proto__x: 1, 'a.__proto__': 1 } })))
      .status,
  ).toBe(400);
  expect((await api(server, `${base}/Todo/update-many`, { method: 'PATCH', body: [1] })).status).toBe(400);
  expect(
    (await api(server, `${base}/Todo/update-many`, { method: 'PATCH', body: { query: 1, data: {} } })).status,
  ).toBe(400);

  const invalid = await failure(service.updateMany({ name: batch }, { $inc: { priority: 1 } }));
  expect(invalid.status).toBe(422);
  expect(invalid.message).toContain('priority');
  expect(((await service.filter({ name: batch }, 'title')) as Row[]).map((row) => row.priority)).toEqual([
    4, 5,
  ]);
  expect((await failure(service.updateMany({ name: batch }, { $push: { title: 'x' } }))).status).toBe(422);

  // Note: update rule is owner-only; `pinned` may be written by admins only.
  const owner = await createUser(server, { email: uniqueEmail('um-owner') });
  const other = await createUser(server, { email: uniqueEmail('um-other') });
  const mine = entityOf(userClient(server, owner.token), 'Note');
  const theirs = entityOf(userClient(server, other.token), 'Note');
  await mine.bulkCreate([
    { text: batch, n: 1 },
    { text: batch, n: 2 },
  ]);
  await theirs.create({ text: batch, n: 3 });
  expect(await mine.updateMany({ text: batch }, { $inc: { n: 10 } })).toEqual({
    success: true,
    updated: 2,
    has_more: false,
  });
  expect(((await theirs.filter({ text: batch })) as Row[]).map((row) => row.n)).toEqual([3]);
  const pinned = await failure(mine.updateMany({ text: batch }, { $set: { pinned: true } }));
  expect(pinned.status).toBe(403);
  expect(pinned.message).toContain('pinned');
  expect((await failure(mine.updateMany({ text: batch }, { $unset: { text: '' } }))).status).toBe(422);
  expect(
    (await failure(entityOf(userClient(server), 'Note').updateMany({}, { $set: { n: 1 } }))).status,
  ).toBe(403);
});

test('upsert creates and updates by a key (compound keys, last duplicate wins) under the rules', async () => {
  const todos = entityOf(serviceClient(server).asServiceRole, 'Todo');
  const batch = `up${Date.now()}`;
  const first = await todos.upsert(
    [
      { code: 'AB-1', name: batch, title: 'one' },
      { code: 'AB-2', name: batch, title: 'two' },
      { code: 'AB-1', name: batch, title: 'one again' },
    ],
    { key: 'code' },
  );
  expect(first.created).toBe(2);
  expect(first.updated).toBe(0);
  expect(first.records.map((row: Row) => row.title).sort()).toEqual(['one again', 'two']);
  const second = await todos.upsert(
    [
      { code: 'AB-2', name: batch, priority: 3 },
      { code: 'AB-3', name: batch, title: 'three' },
    ],
    { key: 'code' },
  );
  expect([second.created, second.updated]).toEqual([1, 1]);
  const two = (second.records as Row[]).find((row) => row.code === 'AB-2');
  expect(two).toMatchObject({ title: 'two', priority: 3 });
  expect(await todos.count({ name: batch })).toBe(3);

  const compound = await todos.upsert([{ name: batch, title: 'two', status: 'done' }], {
    key: ['name', 'title'],
  });
  expect([compound.created, compound.updated]).toEqual([0, 1]);
  expect(await todos.get(two?.id as string)).toMatchObject({ status: 'done', priority: 3 });

  expect((await failure(todos.upsert([{ title: 'no key' }], { key: 'code' }))).status).toBe(400);
  expect((await failure(todos.upsert([{ code: 'x' }], { key: 'nope' }))).status).toBe(400);
  expect((await failure(todos.upsert([{ code: 'AB-9', priority: 9 }], { key: 'code' }))).status).toBe(422);
  expect((await api(server, `${base}/Todo/upsert`, { body: { records: {}, key: 'code' } })).status).toBe(400);

  const owner = await createUser(server, { email: uniqueEmail('up-owner') });
  const other = await createUser(server, { email: uniqueEmail('up-other') });
  const mine = entityOf(userClient(server, owner.token), 'Note');
  await mine.create({ text: batch, n: 1 });
  // A record the caller may not read never matches (no existence oracle): other gets a note of its own.
  const theirs = await entityOf(userClient(server, other.token), 'Note').upsert([{ text: batch, n: 2 }], {
    key: 'text',
  });
  expect(theirs).toMatchObject({ created: 1, updated: 0 });
  expect(await mine.filter({ text: batch })).toMatchObject([{ text: batch, n: 1 }]);
  expect((await failure(mine.upsert([{ text: batch, pinned: true }], { key: 'text' }))).status).toBe(403);
  expect(await mine.upsert([{ text: batch, n: 5 }], { key: 'text' })).toMatchObject({
    created: 0,
    updated: 1,
  });
});

test('bulkUpdate merges each record; one it may not update refuses the whole call', async () => {
  const owner = await createUser(server, { email: uniqueEmail('bu-owner') });
  const other = await createUser(server, { email: uniqueEmail('bu-other') });
  const mine = entityOf(userClient(server, owner.token), 'Note');
  const theirs = entityOf(userClient(server, other.token), 'Note');
  const [a, b] = (await mine.bulkCreate([
    { text: 'a', n: 1 },
    { text: 'b', n: 2 },
  ])) as Row[];
  const foreign = (await theirs.create({ text: 'c' })) as Row;
  const updated = (await mine.bulkUpdate([
    { id: b?.id as string, n: 20 },
    { id: a?.id as string, text: 'A' },
  ])) as Row[];
  expect(updated.map((row) => [row.id, row.text, row.n])).toEqual([
    [b?.id, 'b', 20],
    [a?.id, 'A', 1],
  ]);

  const refused = await failure(
    mine.bulkUpdate([
      { id: a?.id as string, n: 7 },
      { id: foreign.id, n: 7 },
    ]),
  );
  expect(refused.status).toBe(404);
  expect(refused.message).toContain(foreign.id);
  expect(await mine.get(a?.id as string)).toMatchObject({ n: 1 });
  expect((await failure(mine.bulkUpdate([{ id: a?.id as string, n: 'x' } as never]))).status).toBe(422);
  expect((await failure(mine.bulkUpdate([{ id: a?.id as string, pinned: true }]))).status).toBe(403);
  expect((await failure(mine.bulkUpdate([{ n: 1 } as never]))).status).toBe(400);
  expect(
    (await api(server, `${base}/Note/bulk`, { method: 'PUT', body: { id: 'x' }, token: owner.token })).status,
  ).toBe(400);
  const tooMany = Array.from({ length: 501 }, () => ({ id: a?.id as string }));
  expect((await failure(mine.bulkUpdate(tooMany))).status).toBe(400);
});

test('v2 list: cursor pages in sort order, distinct values, rules per page, bad cursors 400', async () => {
  const todos = entityOf(serviceClient(server).asServiceRole, 'Todo');
  const batch = `v2${Date.now()}`;
  await todos.bulkCreate(
    Array.from({ length: 7 }, (_, i) => ({
      name: batch,
      title: `t${i}`,
      ...(i % 3 === 0 ? {} : { priority: (i % 2) + 1 }),
      status: i % 2 ? 'open' : 'done',
    })),
  );
  const walk = async (sort: string) => {
    const seen: unknown[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 10; pages += 1) {
      const page = (await todos.filter({ name: batch }, { sort, limit: 3, cursor, fields: ['title'] })) as {
        items: Row[];
        next_cursor: string | null;
        has_more: boolean;
      };
      seen.push(...page.items.map((row) => row.title));
      expect(page.has_more).toBe(page.next_cursor !== null);
      if (!page.next_cursor) break;
      cursor = page.next_cursor;
    }
    return seen;
  };
  const all = (await todos.filter({ name: batch }, 'priority', 50)) as Row[];
  expect(await walk('priority')).toEqual(all.map((row) => row.title));
  const down = (await todos.filter({ name: batch }, '-priority', 50)) as Row[];
  expect(await walk('-priority')).toEqual(down.map((row) => row.title));
  expect((await walk('title')).length).toBe(7);

  const distinct = await todos.filter({ name: batch }, { distinct: 'status', limit: 1 });
  expect(distinct).toMatchObject({ items: ['done'], has_more: true });
  const next = await todos.filter(
    { name: batch },
    { distinct: 'status', limit: 1, cursor: distinct.next_cursor },
  );
  expect(next).toEqual({ items: ['open'], next_cursor: null, has_more: false });

  const owner = await createUser(server, { email: uniqueEmail('v2-owner') });
  const other = await createUser(server, { email: uniqueEmail('v2-other') });
  await entityOf(userClient(server, other.token), 'Note').create({ text: batch });
  await entityOf(userClient(server, owner.token), 'Note').bulkCreate([{ text: batch }, { text: batch }]);
  const notes = await entityOf(userClient(server, owner.token), 'Note').filter({ text: batch }, { limit: 2 });
  expect(notes).toMatchObject({ has_more: false, next_cursor: null });
  expect(notes.items).toHaveLength(2);

  const first = await todos.filter({ name: batch }, { limit: 1 });
  const url = `${base}/Todo/v2/list?limit=1`;
  expect((await api(server, `${url}&cursor=not*base64`, { method: 'GET' })).status).toBe(400);
  expect(
    (await api(server, `${url}&cursor=${Buffer.from('[1]').toString('base64url')}`, { method: 'GET' }))
      .status,
  ).toBe(400);
  expect((await api(server, `${url}&sort=title&cursor=${first.next_cursor}`, { method: 'GET' })).status).toBe(
    400,
  );
  expect((await api(server, `${url}&sort=title,priority`, { method: 'GET' })).status).toBe(400);
  expect((await api(server, `${url}&distinct=a..b`, { method: 'GET' })).status).toBe(400);
});
