import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../test-support/open-test-database';
import type { Database, Queryable } from './database';
import { createEntityRecordsStore, type EntityRecordsStore } from './entity-records-store';

// Reads by id of one selection that arrive while one is running are answered by one statement; each
// caller still gets its own row (or null), and reads under different rules never share a statement.

let opened: TestDatabase;
let store: EntityRecordsStore;
const sent: string[] = [];

function recorded(target: Queryable): Queryable {
  return {
    query: async (sql, params, options) => {
      sent.push(sql);
      return target.query<never>(sql, params, options);
    },
  };
}

beforeAll(async () => {
  opened = await openTestDatabase({ engine: 'pglite' });
  const db: Database = {
    ...recorded(opened.db),
    transaction: (fn) => opened.db.transaction((tx) => fn(recorded(tx))),
    close: () => opened.db.close(),
  };
  await opened.db.query(`INSERT INTO apps (id) VALUES ('app') ON CONFLICT DO NOTHING`);
  store = createEntityRecordsStore(db);
  await store.insertMany(
    'app',
    'Todo',
    ['a', 'b', 'c', 'd'].map((id) => ({
      id,
      data: { title: id, mine: id === 'a' || id === 'b' },
      created_by: null,
      created_by_id: null,
    })),
  );
}, 60_000);

afterAll(() => opened?.close());

const byIdStatements = () => sent.filter((sql) => sql.includes('id = ANY('));

describe('findOne under load', () => {
  it('answers waiting reads of one selection with one statement, each with its own row', async () => {
    sent.length = 0;
    const everyone = { appId: 'app', entity: 'Todo', rule: true as const };
    const answers = await Promise.all(['a', 'b', 'c', 'missing'].map((id) => store.findOne(everyone, id)));
    expect(answers.map((row) => row?.id ?? null)).toEqual(['a', 'b', 'c', null]);
    expect(answers[1]?.data).toEqual({ title: 'b', mine: true });
    // The first read runs at once; the three that waited share the next statement.
    expect(byIdStatements()).toHaveLength(2);
  });

  it('keeps reads under different rules apart, and applies each rule', async () => {
    sent.length = 0;
    const everyone = { appId: 'app', entity: 'Todo', rule: true as const };
    const mineOnly = { appId: 'app', entity: 'Todo', rule: { mine: true } };
    const [open, ruled, ruledOut] = await Promise.all([
      store.findOne(everyone, 'c'),
      store.findOne(mineOnly, 'a'),
      store.findOne(mineOnly, 'd'),
    ]);
    expect(open?.id).toBe('c');
    expect(ruled?.id).toBe('a');
    expect(ruledOut).toBeNull();
    // Each selection runs its first read at once; the second read of mineOnly waits for its own group.
    expect(byIdStatements()).toHaveLength(3);
  });
});
