import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppsStore } from '../../store/apps-store';
import type { Database } from '../../store/database';
import {
  createEntityRecordsStore,
  type EntityRecordsStore,
  type Selection,
} from '../../store/entity-records-store';
import { cacheAcrossInstances, withReadCache } from './cached-records-store';
import { createReadCache, type ReadCache } from './read-cache';
import { openTestDatabase, type TestDatabase } from '../../test-support/open-test-database';

// The cached store runs over the real store (PGlite): each test checks what a caller reads after writes.
let opened: TestDatabase | undefined;
let db: Database;
let base: EntityRecordsStore;

beforeAll(async () => {
  opened = await openTestDatabase({ engine: 'pglite' });
  db = opened.db;
  await createAppsStore(db).ensure('app');
  base = createEntityRecordsStore(db);
});

afterAll(async () => {
  await opened?.close();
});

let next = 0;
const newCache = () => createReadCache({ maxBytes: 1024 * 1024, ttlMs: 60_000 });
const everything = (entity: string): Selection => ({ appId: 'app', entity, rule: true });
const record = (data: Record<string, unknown>) => ({
  id: `r${++next}`,
  data,
  created_by: null,
  created_by_id: null,
});
const titles = async (store: EntityRecordsStore, selection: Selection) =>
  (await store.findMany(selection, { limit: 100, skip: 0 })).map((row) => row.data.title);

describe('withReadCache', () => {
  it('serves repeated reads from memory and sees every kind of write at once', async () => {
    const cache = newCache();
    const store = withReadCache(base, cache);
    const todo = everything('CacheTodo');
    const first = record({ title: 'one' });
    await store.insertMany('app', 'CacheTodo', [first]);
    expect(await titles(store, todo)).toEqual(['one']);
    expect(await titles(store, todo)).toEqual(['one']);
    expect(await store.count(todo)).toBe(1);
    expect(await store.count(todo)).toBe(1);
    expect(cache.stats().hits).toBe(2);

    await store.updateOne(todo, first.id, () => ({ title: 'one, changed' }));
    expect(await titles(store, todo)).toEqual(['one, changed']);
    expect((await store.findOne(todo, first.id))?.data.title).toBe('one, changed');
    await store.importMany('app', 'CacheTodo', [record({ title: 'two' })]);
    expect(await store.count(todo)).toBe(2);
    await store.updateSelected(todo, { limit: 10 }, (rows) =>
      rows.map((row) => ({ id: row.id, data: { title: `${String(row.data.title)}!` } })),
    );
    expect((await titles(store, todo)).sort()).toEqual(['one, changed!', 'two!']);
    await store.deleteOne(todo, first.id);
    expect(await store.findOne(todo, first.id)).toBeNull();
    await store.deleteMany(todo);
    expect(await store.count(todo)).toBe(0);
  });

  it('answers each resolved rule and visibility separately', async () => {
    const store = withReadCache(base, newCache());
    await store.insertMany('app', 'CacheNote', [
      { ...record({ title: 'mine' }), created_by: 'a@x.io', created_by_id: 'a' },
      { ...record({ title: 'theirs' }), created_by: 'b@x.io', created_by_id: 'b' },
    ]);
    const as = (email: string): Selection => ({
      appId: 'app',
      entity: 'CacheNote',
      rule: { created_by: email },
    });
    expect(await titles(store, as('a@x.io'))).toEqual(['mine']);
    expect(await titles(store, as('b@x.io'))).toEqual(['theirs']);
    expect(await titles(store, { ...as('a@x.io'), rule: false })).toEqual([]);
  });

  it('never caches the built-in User entity', async () => {
    const cache = newCache();
    const store = withReadCache(base, cache);
    const users: Selection = { ...everything('User'), source: 'users' };
    await store.count(users);
    await store.count(users);
    expect(cache.stats()).toMatchObject({ hits: 0, misses: 0 });
  });

  it('retires this instance\u2019s answers when another instance writes', async () => {
    // Two instances = two caches over one database, linked by a stand-in for the realtime hub.
    const handlers: ((payload: unknown) => void)[] = [];
    const hub = {
      handle: (_name: string, handler: (payload: unknown) => void) => void handlers.push(handler),
      dispatch: (_name: string, payload: unknown) => handlers.forEach((handler) => handler(payload)),
    };
    const caches: ReadCache[] = [newCache(), newCache()];
    const [a, b] = caches.map((cache) => cacheAcrossInstances(base, cache, hub)) as [
      EntityRecordsStore,
      EntityRecordsStore,
    ];
    const todo = everything('CacheShared');
    expect(await a.count(todo)).toBe(0);
    await b.insertMany('app', 'CacheShared', [record({ title: 'from b' })]);
    expect(await a.count(todo)).toBe(1);
    hub.dispatch('x', { appId: 'app' }); // malformed: ignored
    expect(await a.count(todo)).toBe(1);
  });
});
