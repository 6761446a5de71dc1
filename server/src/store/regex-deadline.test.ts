import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseErrorAnswer } from '../lib/database-errors';
import { copyMigratedPglite } from '../test-support/migrated-pglite';
import { openTestDatabase } from '../test-support/open-test-database';
import type { Database } from './database';
import { createEntityRecordsStore } from './entity-records-store';
import { openDatabase, REGEX_DEADLINE_MS, type DatabaseSettings } from './open-database';
import type { DatabaseLog } from './pglite-worker-database';

// A `$regex` scan stops at queen.regex_deadline_ms with its own error, on PGlite without restarting the
// engine (PGlite cannot honour statement_timeout) and on PostgreSQL before statement_timeout. The PGlite
// cases open the database as the server does (`openDatabase`, the subject here), on a copy of the run's
// migrated folder; the PostgreSQL one through openTestDatabase with the same session settings.
const DEADLINE_MS = 50;
const QUERY_TIMEOUT_MS = 20_000;
const APP = 'regex-deadline';
// Four patterns that read whole values, over 600 records of 64 KB: seconds of scanning on either store.
const SLOW_QUERY = { $or: ['q1z', 'q2z', 'q3z', 'q4z'].map((tail) => ({ body: { $regex: `a.*${tail}` } })) };

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

/** openAsServer opens a migrated PGlite in a fresh DATA_DIR with openDatabase, closed after the file. */
async function openAsServer(
  settings: Omit<DatabaseSettings, 'DATA_DIR'>,
  log?: DatabaseLog,
): Promise<Database> {
  const dataDir = await mkdtemp(join(tmpdir(), 'queen-regex-deadline-'));
  await copyMigratedPglite(join(dataDir, 'pglite'));
  const { db } = await openDatabase({ ...settings, DATA_DIR: dataDir }, undefined, log);
  closers.push(async () => {
    await db.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  return db;
}

async function seeded(db: Database): Promise<void> {
  await db.query('INSERT INTO apps (id) VALUES ($1)', [APP]);
  await db.query(
    `INSERT INTO entity_records (app_id, entity, id, data, created_date, updated_date)
     SELECT $1, 'Note', 'n' || g, jsonb_build_object('body', repeat(md5(g::text), 2048)), now(), now()
     FROM generate_series(1, 600) g`,
    [APP],
  );
}

async function expectStoppedAtDeadline(db: Database): Promise<void> {
  const store = createEntityRecordsStore(db);
  const selection = { appId: APP, entity: 'Note', rule: true, query: SLOW_QUERY };
  const started = performance.now();
  const error: unknown = await store.findMany(selection, { limit: 10, skip: 0 }).then(
    () => null,
    (caught: unknown) => caught,
  );
  const tookMs = performance.now() - started;
  expect(error).toMatchObject({ code: 'QR001' });
  expect(databaseErrorAnswer(error)).toMatchObject({
    status: 400,
    message: expect.stringContaining('$regex'),
  });
  expect(tookMs).toBeLessThan(QUERY_TIMEOUT_MS);
  // A short scan and the next statement answer at once: nothing was restarted or left holding a lock.
  const quick = await store.findMany(
    { ...selection, query: { body: { $regex: '^[0-9a-f]{4}' } } },
    { limit: 2, skip: 0 },
  );
  expect(quick).toHaveLength(2);
}

describe('a $regex scan past its deadline', () => {
  it('stops on PGlite with QR001, and the engine keeps answering without a restart', async () => {
    const logged: string[] = [];
    const log = {
      warn: (_: object, message: string) => logged.push(message),
      error: (_: object, message: string) => logged.push(message),
    };
    const db = await openAsServer(
      { DATABASE_QUERY_TIMEOUT_MS: QUERY_TIMEOUT_MS, ENTITY_REGEX_DEADLINE_MS: DEADLINE_MS },
      log,
    );
    await seeded(db);
    await expectStoppedAtDeadline(db);
    expect(logged).toEqual([]);
  }, 60_000);

  it('is 300 ms on PGlite unless ENTITY_REGEX_DEADLINE_MS says otherwise', async () => {
    const db = await openAsServer({ DATABASE_QUERY_TIMEOUT_MS: QUERY_TIMEOUT_MS });
    const { rows } = await db.query<{ ms: string }>(
      "SELECT current_setting('queen.regex_deadline_ms') AS ms",
    );
    expect(rows).toEqual([{ ms: String(REGEX_DEADLINE_MS.pglite) }]);
    // Opening a fresh PGlite takes seconds on a busy machine.
  }, 30_000);

  it.runIf(process.env.DATABASE_URL)(
    'stops on PostgreSQL with QR001, before statement_timeout',
    async () => {
      const scratch = await openTestDatabase({
        engine: 'postgres',
        name: 'regex_deadline',
        postgres: {
          queryTimeoutMs: QUERY_TIMEOUT_MS,
          sessionSettings: { 'queen.regex_deadline_ms': String(DEADLINE_MS) },
        },
      });
      closers.push(() => scratch.close());
      await seeded(scratch.db);
      await expectStoppedAtDeadline(scratch.db);
    },
    60_000,
  );
});
