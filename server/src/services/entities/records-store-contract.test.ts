// One contract for every entity records store the server can run on: the SQL store on PGlite, on PostgreSQL
// (with DATABASE_URL, as CI sets it) and each behind the read cache. A store that answers differently on
// one of them fails here, in seconds, instead of in an API spec rerun on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppsStore } from '../../store/apps-store';
import {
  createEntityRecordsStore,
  type EntityRecordRow,
  type EntityRecordsStore,
  type Selection,
} from '../../store/entity-records-store';
import { openTestDatabase, TEST_ENGINES, type TestDatabase } from '../../test-support/open-test-database';
import { withReadCache } from './cached-records-store';
import { createReadCache } from './read-cache';

const APP = 'contract-app';
const VARIANTS = TEST_ENGINES.flatMap((engine) => [
  { engine, cached: false },
  { engine, cached: true },
]);

let nextId = 0;
const newRecord = (data: Record<string, unknown>) => ({
  id: `c${++nextId}`,
  data,
  created_by: 'owner@x.test',
  created_by_id: 'owner',
});
const titles = (rows: EntityRecordRow[]) => rows.map((row) => row.data.title);

for (const { engine, cached } of VARIANTS) {
  describe(`the entity records store on ${engine}${cached ? ', behind the read cache' : ''}`, () => {
    let opened: TestDatabase | undefined;
    let store: EntityRecordsStore;
    let entityCount = 0;
    // Each test writes its own entity, so tests never see each other's rows.
    const freshEntity = (): Selection => ({ appId: APP, entity: `Contract${++entityCount}`, rule: true });
    const seed = async (selection: Selection, rows: Record<string, unknown>[]) =>
      store.insertMany(APP, selection.entity, rows.map(newRecord));

    beforeAll(async () => {
      opened = await openTestDatabase({ engine, name: 'contract' });
      await createAppsStore(opened.db).ensure(APP);
      const base = createEntityRecordsStore(opened.db);
      store = cached ? withReadCache(base, createReadCache({ maxBytes: 1024 * 1024, ttlMs: 60_000 })) : base;
    }, 60_000);

    afterAll(async () => {
      await opened?.close();
    });

    it('stores what it is given with its stamps, and reads it back by id', async () => {
      const todo = freshEntity();
      const [row] = await seed(todo, [{ title: 'one', done: false, tags: ['a'] }]);
      expect(row).toMatchObject({ data: { title: 'one', done: false, tags: ['a'] }, created_by_id: 'owner' });
      const found = await store.findOne(todo, row?.id ?? '');
      expect(found?.data).toEqual({ title: 'one', done: false, tags: ['a'] });
      expect(new Date(found?.created_date ?? 0).getTime()).toBeGreaterThan(0);
      expect(await store.findOne(todo, 'no-such-id')).toBeNull();
      expect(await store.findOne({ ...todo, rule: false }, row?.id ?? '')).toBeNull();
    });

    it('lists, sorts, pages and counts within the query and the rule', async () => {
      const todo = freshEntity();
      await seed(todo, [
        { title: 'b', rank: 2, owner: 'u1' },
        { title: 'a', rank: 1, owner: 'u2' },
        { title: 'c', rank: 3, owner: 'u1' },
      ]);
      expect(titles(await store.findMany(todo, { sort: 'title', limit: 10, skip: 0 }))).toEqual([
        'a',
        'b',
        'c',
      ]);
      expect(titles(await store.findMany(todo, { sort: '-rank', limit: 2, skip: 1 }))).toEqual(['b', 'a']);
      const ranked = { ...todo, query: { rank: { $gte: 2 } } };
      expect(titles(await store.findMany(ranked, { sort: 'rank', limit: 10, skip: 0 }))).toEqual(['b', 'c']);
      expect(await store.count(ranked)).toBe(2);
      const mine = { ...todo, rule: { owner: { $eq: 'u1' } } };
      expect(titles(await store.findMany(mine, { sort: 'title', limit: 10, skip: 0 }))).toEqual(['b', 'c']);
      expect(await store.count({ ...todo, rule: false })).toBe(0);
    });

    it('pages through every row once by cursor, in (field, id) order', async () => {
      const todo = freshEntity();
      await seed(
        todo,
        Array.from({ length: 7 }, (_, index) => ({ title: `t${index}`, rank: index % 3 })),
      );
      const seen: string[] = [];
      let after: Awaited<ReturnType<EntityRecordsStore['findPage']>>['rows'][number]['position'] | undefined;
      for (let round = 0; round < 10; round += 1) {
        const page = await store.findPage(todo, { field: 'rank', descending: false, limit: 3, after });
        seen.push(...page.rows.map(({ row }) => String(row.data.title)));
        after = page.rows.at(-1)?.position;
        if (!page.more) break;
      }
      expect([...seen].sort()).toEqual(['t0', 't1', 't2', 't3', 't4', 't5', 't6']);
      const ranks = seen.map((title) => Number(title.slice(1)) % 3);
      expect(ranks).toEqual([...ranks].sort((left, right) => left - right));
    });

    it('answers distinct values in ascending order, without nulls', async () => {
      const todo = freshEntity();
      await seed(todo, [{ colour: 'red' }, { colour: 'blue' }, { colour: 'red' }, { colour: null }, {}]);
      expect(await store.distinctValues(todo, 'colour', 10)).toEqual({
        values: ['blue', 'red'],
        more: false,
      });
      expect(await store.distinctValues(todo, 'colour', 1)).toEqual({ values: ['blue'], more: true });
    });

    it('updates one record the rule admits, and none it does not', async () => {
      const todo = freshEntity();
      const [row] = await seed(todo, [{ title: 'before' }]);
      const id = row?.id ?? '';
      expect(await store.updateOne({ ...todo, rule: false }, id, () => ({ title: 'refused' }))).toBeNull();
      const updated = await store.updateOne(todo, id, (current) => ({ ...current.data, title: 'after' }));
      expect(updated?.data).toEqual({ title: 'after' });
      expect((await store.findOne(todo, id))?.data.title).toBe('after');
      expect(await store.updateOne(todo, 'no-such-id', () => ({}))).toBeNull();
    });

    it('updates the selected records up to a limit and says more are left', async () => {
      const todo = freshEntity();
      await seed(todo, [{ n: 1 }, { n: 2 }, { n: 3 }]);
      const { rows, more } = await store.updateSelected(todo, { limit: 2 }, (locked) =>
        locked.map((current) => ({ id: current.id, data: { ...current.data, seen: true } })),
      );
      expect(rows).toHaveLength(2);
      expect(more).toBe(true);
      expect(await store.count({ ...todo, query: { seen: true } })).toBe(2);
    });

    it('upserts by key: inserts the new ones and updates the matching ones', async () => {
      const todo = freshEntity();
      await seed(todo, [{ sku: 'a', qty: 1 }]);
      const { inserted, updated } = await store.upsertByKey(
        APP,
        todo.entity,
        ['sku'],
        [['a'], ['b']],
        true,
        true,
        (existing) => ({
          inserts: [newRecord({ sku: 'b', qty: 5 })],
          updates: existing.map(({ row }) => ({ id: row.id, data: { ...row.data, qty: 2 } })),
        }),
      );
      expect(inserted.map((row) => row.data)).toEqual([{ sku: 'b', qty: 5 }]);
      expect(updated.map((row) => row.data)).toEqual([{ sku: 'a', qty: 2 }]);
      expect(titlesOf(await store.findMany(todo, { sort: 'sku', limit: 10, skip: 0 }))).toEqual([
        'a:2',
        'b:5',
      ]);
    });

    it('deletes one record or every selected one, and reads see them gone', async () => {
      const todo = freshEntity();
      const rows = await seed(todo, [
        { title: 'x', keep: false },
        { title: 'y', keep: false },
        { title: 'z', keep: true },
      ]);
      expect((await store.deleteOne(todo, rows[0]?.id ?? ''))?.data.title).toBe('x');
      expect(await store.deleteOne(todo, rows[0]?.id ?? '')).toBeNull();
      const deleted = await store.deleteMany({ ...todo, query: { keep: false } });
      expect(titles(deleted)).toEqual(['y']);
      expect(titles(await store.findMany(todo, { limit: 10, skip: 0 }))).toEqual(['z']);
      expect(await store.count(todo)).toBe(1);
    });
  });
}

function titlesOf(rows: EntityRecordRow[]): string[] {
  return rows.map((row) => `${String(row.data.sku)}:${String(row.data.qty)}`);
}
