import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_ENGINES, type TestDatabase } from '../test-support/open-test-database';
import type { Database, Queryable } from './database';
import { createEntityRecordsStore } from './entity-records-store';
import { createStatisticsKeeper, MIN_NEW_ROWS } from './statistics-keeper';
import { createUsersStore } from './users-store';

// The plans of the everyday requests, read with EXPLAIN from the statements the stores really send, on
// PGlite and (with DATABASE_URL, as CI sets it) PostgreSQL: right after a bulk load that no ANALYZE has
// seen (PGlite never auto-analyzes; autovacuum is switched off here), and with fresh statistics. A hot
// query must reach its rows through its index: no sequential scan, no sort of a whole entity.

const ROWS = 20_000;

/** recording returns db with every statement it runs kept in `sent`, to EXPLAIN them afterwards. */
function recording(db: Database) {
  const sent: { sql: string; params: unknown[] }[] = [];
  const recorder: Database = {
    ...db,
    query: (sql, params = []) => {
      sent.push({ sql, params });
      return db.query(sql, params);
    },
    transaction: (fn) => db.transaction(fn),
    close: () => db.close(),
  };
  return { db: recorder, sent };
}

async function explain(db: Queryable, statement: { sql: string; params: unknown[] }): Promise<string> {
  const { rows } = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${statement.sql}`, statement.params);
  return rows.map((row) => row['QUERY PLAN']).join('\n');
}

/** hotPlans runs each hot request through the stores and returns the plan of the statement it sent. */
async function hotPlans(db: Database, ids: { record: string; user: string }) {
  const { db: recorder, sent } = recording(db);
  // A keeper that never runs: the test decides when statistics exist.
  const quiet = { inserted: () => undefined, analyzed: () => undefined, idle: async () => undefined };
  const records = createEntityRecordsStore(recorder, quiet);
  const users = createUsersStore(recorder);
  const last = async (run: () => Promise<unknown>) => {
    sent.length = 0;
    await run();
    const statement = sent.at(-1);
    if (!statement) throw new Error('no statement sent');
    return explain(db, statement);
  };
  const selection = { appId: 'app', entity: 'Todo', rule: true } as const;
  return {
    getById: await last(() => records.findOne(selection, ids.record)),
    userById: await last(() => users.findById('app', ids.user)),
    list: await last(() =>
      records.findMany(
        { ...selection, query: { completed: false } },
        { sort: '-created_date', limit: 50, skip: 0 },
      ),
    ),
    create: await last(() =>
      records.insertMany('app', 'Todo', [
        {
          id: `new-${randomBytes(4).toString('hex')}`,
          data: { title: 'new' },
          created_by: null,
          created_by_id: null,
        },
      ]),
    ),
  };
}

function expectIndexed(plans: Awaited<ReturnType<typeof hotPlans>>) {
  for (const [name, plan] of Object.entries(plans)) {
    expect(plan, `${name} scans a table:\n${plan}`).not.toMatch(/Seq Scan|Sort/);
  }
  expect(plans.getById).toContain('entity_records_pkey');
  expect(plans.getById).toMatch(/Index Cond: .*id = /);
  expect(plans.userById).toContain('users_pkey');
  expect(plans.list).toContain('entity_records_created_idx');
}

describe.each(TEST_ENGINES)('hot query plans on %s', (name) => {
  let engine: TestDatabase;
  let ids: { record: string; user: string };

  beforeAll(async () => {
    engine = await openTestDatabase({ engine: name, name: 'perf_plans' });
    const { db } = engine;
    await db.query(`ALTER TABLE entity_records SET (autovacuum_enabled = false)`);
    await db.query(`ALTER TABLE users SET (autovacuum_enabled = false)`);
    await db.query(`INSERT INTO apps (id) VALUES ('app'), ('other')`);
    // A bulk load: two apps, several entities, a third of the records owned by one of 50 users.
    await db.query(
      `INSERT INTO entity_records (app_id, entity, id, data, created_date, created_by_id)
       SELECT CASE WHEN g % 10 = 0 THEN 'other' ELSE 'app' END,
         (ARRAY['Todo', 'Note', 'Task'])[g % 3 + 1], md5(g::text),
         jsonb_build_object('title', 'Todo ' || g, 'completed', g % 2 = 0),
         now() - g * interval '1 second', CASE WHEN g % 3 = 0 THEN 'user-' || g % 50 END
       FROM generate_series(1, $1::int) AS g`,
      [ROWS],
    );
    await db.query(
      `INSERT INTO users (id, app_id, email)
       SELECT 'user-' || g, CASE WHEN g % 10 = 0 THEN 'other' ELSE 'app' END, 'user' || g || '@example.com'
       FROM generate_series(1, $1::int) AS g`,
      [ROWS / 10],
    );
    ids = { record: '7b1ba0de1ae4a8bbbcbfa4d50c6c4d2e', user: 'user-7' };
    const { rows } = await db.query<{ id: string }>(
      `SELECT id FROM entity_records WHERE app_id = 'app' AND entity = 'Todo' LIMIT 1`,
    );
    ids.record = rows[0]?.id ?? ids.record;
  });

  afterAll(async () => {
    await engine?.close();
  });

  it('reach their rows through an index right after a bulk load, before any statistics', async () => {
    expectIndexed(await hotPlans(engine.db, ids));
  });

  it('reach their rows through an index with fresh statistics', async () => {
    await engine.db.query('ANALYZE entity_records');
    await engine.db.query('ANALYZE users');
    expectIndexed(await hotPlans(engine.db, ids));
  });

  it('refreshes statistics once inserts have doubled the table, after the insert', async () => {
    const reltuples = async () =>
      Number(
        (
          await engine.db.query<{ n: number }>(
            `SELECT reltuples::float8 AS n FROM pg_class WHERE oid = 'entity_records'::regclass`,
          )
        ).rows[0]?.n,
      );
    const before = await reltuples();
    const keeper = createStatisticsKeeper(engine.db, 'entity_records');
    const store = createEntityRecordsStore(engine.db, keeper);
    const batch = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) => ({
        id: `grow-${from + i}`,
        data: { title: `grow ${from + i}` },
        created_by: null,
        created_by_id: null,
      }));
    // Fewer new rows than the table held at the last ANALYZE: no refresh.
    await store.insertMany('app', 'Todo', batch(0, MIN_NEW_ROWS));
    await keeper.idle();
    expect(await reltuples()).toBe(before);
    // As many again as the table held: refreshed in the background, once the insert has returned.
    await store.insertMany('app', 'Todo', batch(MIN_NEW_ROWS, Math.ceil(before)));
    await keeper.idle();
    expect(await reltuples()).toBeGreaterThan(before * 1.5);
    // A bulk load of 20,000 rows and an ANALYZE take seconds on a busy 2-core machine.
  }, 60_000);
});
