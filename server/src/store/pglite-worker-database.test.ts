import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseUnavailableError } from '../lib/errors';
import type { Database } from './database';
import { openPgliteWorkerDatabase } from './pglite-worker-database';

// The embedded database in its worker thread, for real: a temp folder, PGlite, the watchdog.
const DEADLINE_MS = 300;
const RUNAWAY = 'SELECT count(*) FROM generate_series(1, 10000000000)';

let folder: string;
let db: Database;
const warnings: { object: object; message: string }[] = [];

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'queen-pglite-worker-'));
  db = await openPgliteWorkerDatabase(folder, {
    queryTimeoutMs: DEADLINE_MS,
    log: {
      warn: (object, message) => warnings.push({ object, message }),
      error: (object, message) => warnings.push({ object, message }),
    },
  });
  await db.query('CREATE TABLE notes (id int PRIMARY KEY, body text NOT NULL, at timestamptz, big int8)');
}, 60_000);

afterAll(async () => {
  await db?.close();
  await rm(folder, { recursive: true, force: true });
});

const bodies = async () =>
  (await db.query<{ body: string }>('SELECT body FROM notes ORDER BY id')).rows.map((row) => row.body);

/** answersAgain waits for the restarted worker, failing fast on anything but DatabaseUnavailableError. */
async function answersAgain(): Promise<void> {
  for (const until = Date.now() + 30_000; Date.now() < until;) {
    try {
      await db.query('SELECT 1');
      return;
    } catch (error) {
      if (!(error instanceof DatabaseUnavailableError)) throw error;
      await new Promise((wait) => setTimeout(wait, 50));
    }
  }
  throw new Error('the database did not answer again within 30 s');
}

describe('PGlite in a worker thread', () => {
  it('passes parameters and typed values both ways', async () => {
    const at = new Date('2026-01-02T03:04:05.000Z');
    const { rows } = await db.query<{ id: number; body: string; at: Date; big: number }>(
      'INSERT INTO notes VALUES ($1, $2, $3, $4) RETURNING *',
      [1, 'first', at, 42],
    );
    expect(rows).toEqual([{ id: 1, body: 'first', at, big: 42 }]);
  });

  it('commits a transaction and returns its result', async () => {
    const result = await db.transaction(async (tx) => {
      await tx.query('INSERT INTO notes (id, body) VALUES ($1, $2)', [2, 'second']);
      return (await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM notes')).rows[0]?.n;
    });
    expect(result).toBe(2);
    expect(await bodies()).toEqual(['first', 'second']);
  });

  it('rolls a transaction back when its callback throws', async () => {
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO notes (id, body) VALUES ($1, $2)', [3, 'never']);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await bodies()).toEqual(['first', 'second']);
  });

  it('runs statements outside a transaction after it, not inside it', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = db.transaction(async (tx) => {
      await tx.query('INSERT INTO notes (id, body) VALUES ($1, $2)', [4, 'in tx']);
      await held;
    });
    await new Promise((wait) => setTimeout(wait, 50));
    const outside = db.query<{ n: number }>('SELECT count(*)::int AS n FROM notes');
    release();
    await transaction;
    expect((await outside).rows[0]?.n).toBe(3);
    await db.query('DELETE FROM notes WHERE id = 4');
  });

  it('carries PostgreSQL error fields across the thread boundary', async () => {
    const error: unknown = await db
      .query('INSERT INTO notes (id, body) VALUES ($1, $2)', [1, 'duplicate'])
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ code: '23505', constraint: 'notes_pkey', table: 'notes' });
    expect((error as Error).message).toMatch(/duplicate key/);
    expect(error).not.toHaveProperty('params');
  });

  it('stops a runaway statement at the deadline without stalling this thread, and answers again', async () => {
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 20);
    const started = Date.now();
    const error: unknown = await db
      .query(RUNAWAY)
      .then(() => null)
      .catch((caught: unknown) => caught);
    const elapsed = Date.now() - started;
    clearInterval(ticker);

    expect(error).toBeInstanceOf(DatabaseUnavailableError);
    expect(elapsed).toBeGreaterThanOrEqual(DEADLINE_MS);
    expect(elapsed).toBeLessThan(5_000);
    // The event loop kept turning while the worker was stuck: at least a third of the 20 ms ticks ran.
    expect(ticks).toBeGreaterThan(elapsed / 20 / 3);
    expect(warnings).toContainEqual({
      object: { deadlineMs: DEADLINE_MS },
      message: 'a database statement outlived its deadline: restarting the embedded database',
    });

    await answersAgain();
    expect(await bodies()).toEqual(['first', 'second']);
  }, 60_000);

  it('fails a transaction caught by a restart as unavailable and keeps what was committed', async () => {
    const error: unknown = await db
      .transaction(async (tx) => {
        await tx.query('INSERT INTO notes (id, body) VALUES ($1, $2)', [5, 'lost']);
        await tx.query(RUNAWAY);
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DatabaseUnavailableError);
    await answersAgain();
    expect(await bodies()).toEqual(['first', 'second']);
    await db.transaction((tx) => tx.query('INSERT INTO notes (id, body) VALUES ($1, $2)', [6, 'after']));
    expect(await bodies()).toEqual(['first', 'second', 'after']);
  }, 60_000);
});
