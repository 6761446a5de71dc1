import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonTextOf } from '../../lib/json-text';
import type { EntityDef, Project } from '../../project/entity-def';
import type { Caller } from '../../rules/caller';
import { createEntityRecordsStore, type EntityRecordsStore } from '../../store/entity-records-store';
import { openTestDatabase, type TestDatabase } from '../../test-support/open-test-database';
import { createEntitiesService } from './entities-service';
import { createEntityEvents } from './entity-events';
import type { EntityRecord } from './record-presenter';
import { withinBytes } from './read-records';

const record = (id: string, text: string) => ({ id, text }) as unknown as EntityRecord;

describe('withinBytes', () => {
  it('keeps the records whose JSON fits, and remembers exactly that JSON', () => {
    const records = [record('a', 'x'.repeat(40)), record('b', 'y'.repeat(40)), record('c', 'z'.repeat(40))];
    const kept = withinBytes(records, 130);
    expect(kept.map((row) => (row as unknown as { id: string }).id)).toEqual(['a', 'b']);
    expect(jsonTextOf(kept)).toBe(JSON.stringify(kept));
    expect(jsonTextOf(kept).length).toBeLessThanOrEqual(130);
  });

  it('answers every record when they fit, and one even when it alone is larger', () => {
    const records = [record('a', 'x')];
    expect(withinBytes(records, 1_000)).toBe(records);
    expect(withinBytes([record('big', 'x'.repeat(500))], 100)).toHaveLength(1);
  });
});

describe('list', () => {
  const APP = 'app';
  const entity: EntityDef = {
    name: 'Todo',
    properties: { title: { type: 'string' } },
    required: [],
    rls: {},
  };
  const project: Project = { name: 'p', dir: '/p', entities: new Map([['Todo', entity]]), seeds: [] };
  const service: Caller = { kind: 'service' };
  let database: TestDatabase;
  let store: EntityRecordsStore;

  beforeAll(async () => {
    database = await openTestDatabase({ engine: 'pglite', name: 'read_records' });
    await database.db.query(`INSERT INTO apps (id) VALUES ($1)`, [APP]);
    store = createEntityRecordsStore(database.db);
    await store.insertMany(APP, 'Todo', [
      { id: 'a', data: { title: 'first' }, created_by: null, created_by_id: null },
      { id: 'b', data: { title: 'second' }, created_by: null, created_by_id: null },
    ]);
  });
  afterAll(() => database.close());

  const serviceOn = (records: EntityRecordsStore, rowsShared: boolean) =>
    createEntitiesService({
      project,
      store: records,
      events: createEntityEvents(),
      users: {
        update: () => Promise.reject(new Error('not used')),
        remove: () => Promise.reject(new Error('not used')),
      },
      rowsShared,
    });

  it('presents fresh rows afresh each time, their JSON carried to the route', async () => {
    const entities = serviceOn(store, false);
    const first = await entities.list(APP, 'Todo', service, { sort: 'id' });
    const again = await entities.list(APP, 'Todo', service, { sort: 'id' });
    expect(again).not.toBe(first);
    expect(first.map((row) => row.title)).toEqual(['first', 'second']);
    expect(jsonTextOf(first)).toBe(JSON.stringify(first));
    // The text was made when the page was measured and rides on it (a later change to the array would not
    // show): the route sends it without serializing again.
    const measured = JSON.stringify(first);
    first.pop();
    expect(jsonTextOf(first)).toBe(measured);
  });

  it('presents a page the read cache hands out again once per projection', async () => {
    // The read cache answers a repeated query with the same rows (read-cache.ts).
    const rows = await store.findMany({ appId: APP, entity: 'Todo', rule: true }, { limit: 10, skip: 0 });
    const entities = serviceOn({ ...store, findMany: () => Promise.resolve(rows) }, true);
    const first = await entities.list(APP, 'Todo', service, {});
    expect(await entities.list(APP, 'Todo', service, {})).toBe(first);
    const titles = await entities.list(APP, 'Todo', service, { fields: ['title'] });
    expect(titles).not.toBe(first);
    expect(jsonTextOf(titles)).toBe(JSON.stringify(titles));
    expect(Object.keys(titles[0] ?? {})).toEqual(['id', 'title']);
  });
});
