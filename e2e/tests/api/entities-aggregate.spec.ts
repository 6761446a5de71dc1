import { expect, forThisFile, test } from '../../support/test';
import { createUser, failure, serviceClient, uniqueEmail, userClient } from '../../support/auth-helpers';
import { entityOf } from '../../support/entities-helpers';
import type { RunningServer } from '../../support/server-process';

// aggregate through the official SDK: groups, measures, having, sort, dateBucket, the row cap, the read
// rule in SQL and 400s for bad specs.
let server: RunningServer;

test.beforeAll(async ({ sharedEntitiesServer }) => {
  server = forThisFile(sharedEntitiesServer);
});

test('groups with count, sum, avg, min, max and countDistinct, filtered by query', async () => {
  const todos = entityOf(serviceClient(server).asServiceRole, 'Todo');
  const batch = `ag${Date.now()}`;
  await todos.bulkCreate([
    { name: batch, status: 'open', priority: 1, meta: { score: 2 }, title: 'a' },
    { name: batch, status: 'open', priority: 3, meta: { score: 4 }, title: 'a' },
    { name: batch, status: 'done', priority: 5, meta: { score: 1 }, title: 'b' },
    { name: batch, priority: 2, title: 'c' },
    { name: `${batch}-other`, status: 'open', priority: 4 },
  ]);
  const result = await todos.aggregate({
    query: { name: batch },
    groupBy: 'status',
    sum: 'priority',
    avg: ['priority'],
    min: 'priority',
    max: 'priority',
    countDistinct: 'title',
  });
  expect(result).toEqual({
    truncated: false,
    rows: [
      {
        status: null,
        count: 1,
        sum_priority: 2,
        avg_priority: 2,
        min_priority: 2,
        max_priority: 2,
        count_distinct_title: 1,
      },
      {
        status: 'done',
        count: 1,
        sum_priority: 5,
        avg_priority: 5,
        min_priority: 5,
        max_priority: 5,
        count_distinct_title: 1,
      },
      {
        status: 'open',
        count: 2,
        sum_priority: 4,
        avg_priority: 2,
        min_priority: 1,
        max_priority: 3,
        count_distinct_title: 1,
      },
    ],
  });

  const total = await todos.aggregate({ query: { name: batch }, sum: 'priority' });
  expect(total).toEqual({ rows: [{ count: 4, sum_priority: 11 }], truncated: false });

  const sorted = await todos.aggregate({
    query: { name: batch },
    groupBy: ['status', 'title'],
    count: true,
    having: { count: { $gte: 1 } },
    sort: '-count',
    limit: 1,
  });
  expect(sorted).toEqual({ rows: [{ status: 'open', title: 'a', count: 2 }], truncated: true });

  const dupes = await todos.aggregate({
    query: { name: batch },
    groupBy: 'title',
    having: { count: { $gt: 1 } },
  });
  expect(dupes.rows).toEqual([{ title: 'a', count: 2 }]);

  const today = new Date().toISOString().slice(0, 10);
  const byDay = await todos.aggregate({
    query: { name: batch },
    dateBucket: { field: 'created_date', unit: 'day' },
  });
  expect(byDay.rows).toEqual([{ created_date: today, count: 4 }]);
  const byMonth = await todos.aggregate({
    query: { name: batch },
    dateBucket: { field: 'created_date', unit: 'month' },
  });
  expect(byMonth.rows).toEqual([{ created_date: today.slice(0, 7), count: 4 }]);
});

test('the row cap sets truncated', async () => {
  const todos = entityOf(serviceClient(server).asServiceRole, 'Todo');
  const batch = `agcap${Date.now()}`;
  await todos.bulkCreate(Array.from({ length: 1000 }, (_, i) => ({ name: batch, title: `t${i}` })));
  await todos.create({ name: batch, title: 't1000' });
  const capped = await todos.aggregate({ query: { name: batch }, groupBy: 'title', limit: 5000 });
  expect(capped.rows).toHaveLength(1000);
  expect(capped.truncated).toBe(true);
  const all = await todos.aggregate({ query: { name: batch }, groupBy: 'name' });
  expect(all).toEqual({ rows: [{ name: batch, count: 1001 }], truncated: false });
});

test('the read rule applies in SQL: owners aggregate their own notes only', async () => {
  const owner = await createUser(server, { email: uniqueEmail('ag-owner') });
  const other = await createUser(server, { email: uniqueEmail('ag-other') });
  const batch = `agn${Date.now()}`;
  await entityOf(userClient(server, owner.token), 'Note').bulkCreate([
    { text: batch, n: 1 },
    { text: batch, n: 2 },
  ]);
  await entityOf(userClient(server, other.token), 'Note').create({ text: batch, n: 10 });
  const mine = await entityOf(userClient(server, owner.token), 'Note').aggregate({
    query: { text: batch },
    sum: 'n',
  });
  expect(mine.rows).toEqual([{ count: 2, sum_n: 3 }]);
  const anonymous = await entityOf(userClient(server), 'Note').aggregate({
    query: { text: batch },
    groupBy: 'text',
  });
  expect(anonymous).toEqual({ rows: [], truncated: false });
  const service = await entityOf(serviceClient(server).asServiceRole, 'Note').aggregate({
    query: { text: batch },
    sum: 'n',
  });
  expect(service.rows).toEqual([{ count: 3, sum_n: 13 }]);
});

test('bad specs are 400 naming the problem', async () => {
  const todos = entityOf(serviceClient(server).asServiceRole, 'Todo');
  const cases: [Record<string, unknown>, string][] = [
    [{ groupBy: 'colour' }, '"colour"'],
    [{ sum: 'title' }, '"title" is not a number field'],
    [{ groupBy: ['name', 'title', 'status', 'priority', 'due'] }, 'at most 4 group fields'],
    [{ dateBucket: { field: 'created_date', unit: 'hour' } }, 'dateBucket.unit'],
    [{ dateBucket: { field: 'title', unit: 'day' } }, 'dateBucket.field'],
    [{ groupBy: 'status', having: { sum_priority: { $gt: 1 } } }, '"having" names "sum_priority"'],
    [{ groupBy: 'status', having: { count: { $regex: 'x' } } }, 'unknown operator "$regex"'],
    [{ groupBy: 'status', sort: '-total' }, '"sort" names "total"'],
    [{ groupBy: 'status', limit: 0 }, '"limit"'],
    [{ count: false }, 'nothing to compute'],
    [{ groupBy: 'status', bogus: 1 }, 'unknown key(s) "bogus"'],
    [{ query: { priority: { $regex: '(' } }, groupBy: 'status' }, 'Invalid query'],
  ];
  for (const [spec, message] of cases) {
    const error = await failure(todos.aggregate(spec));
    expect(error.status, JSON.stringify(spec)).toBe(400);
    expect(error.message, JSON.stringify(spec)).toContain(message);
  }
  expect((await failure(entityOf(serviceClient(server).asServiceRole, 'Nope').aggregate({}))).status).toBe(
    404,
  );
});
