import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openScratchPostgres } from '../test-support/scratch-postgres';
import { describe, expect, it } from 'vitest';
import type { Database } from './database';
import { openPgliteWorkerDatabase } from './pglite-worker-database';
import { createStatementNames } from './statement-names';

// Statements run with `reuse` are prepared once per connection and then only bound: same answers as
// unnamed statements, inside and outside transactions, and a failed run leaves nothing half-prepared.

const quiet = { warn: () => undefined, error: () => undefined };

async function openWorker(): Promise<{ db: Database; close(): Promise<void> }> {
  const folder = await mkdtemp(join(tmpdir(), 'queen-prepared-'));
  const db = await openPgliteWorkerDatabase(folder, { queryTimeoutMs: 10_000, log: quiet });
  return {
    db,
    close: async () => {
      await db.close();
      await rm(folder, { recursive: true, force: true });
    },
  };
}

const openPostgres = (adminUrl: string): Promise<{ db: Database; close(): Promise<void> }> =>
  openScratchPostgres(adminUrl, 'prepared');

const engines: [string, () => Promise<{ db: Database; close(): Promise<void> }>][] = [
  ['PGlite (worker)', openWorker],
];
const adminUrl = process.env.DATABASE_URL;
if (adminUrl) engines.push(['PostgreSQL', () => openPostgres(adminUrl)]);

describe.each(engines)('reused statements on %s', (_label, open) => {
  it('answer like unnamed ones, survive a failed bind, and work inside transactions', async () => {
    const { db, close } = await open();
    try {
      await db.query('CREATE TABLE notes (id int PRIMARY KEY, n int NOT NULL)');
      const insert = 'INSERT INTO notes (id, n) VALUES ($1, $2) RETURNING id, n';
      const byId = 'SELECT id, n FROM notes WHERE id = $1';
      for (let id = 1; id <= 3; id += 1) {
        expect((await db.query(insert, [id, id * 10], { reuse: true })).rows).toEqual([{ id, n: id * 10 }]);
      }
      // A value the statement cannot take fails this call only; the name stays usable.
      await expect(db.query(byId, ['not a number'], { reuse: true })).rejects.toThrow();
      await expect(db.query(insert, [1, 5], { reuse: true })).rejects.toThrow();
      expect((await db.query(byId, [2], { reuse: true })).rows).toEqual([{ id: 2, n: 20 }]);
      expect((await db.query(byId, [2])).rows).toEqual([{ id: 2, n: 20 }]);
      await db.transaction(async (tx) => {
        await tx.query(insert, [4, 40], { reuse: true });
        expect((await tx.query(byId, [4], { reuse: true })).rows).toEqual([{ id: 4, n: 40 }]);
      });
      await expect(
        db.transaction(async (tx) => {
          await tx.query(insert, [5, 50], { reuse: true });
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      expect((await db.query(byId, [5], { reuse: true })).rows).toEqual([]);
      expect((await db.query(insert, [5, 55], { reuse: true })).rows).toEqual([{ id: 5, n: 55 }]);
    } finally {
      await close();
    }
  }, 60_000);
});

describe('createStatementNames', () => {
  it('names the same text alike, and stops naming new texts past its bound', () => {
    const nameOf = createStatementNames(2);
    const first = nameOf('SELECT 1');
    expect(first).toMatch(/^q_[0-9a-f]{24}$/);
    expect(nameOf('SELECT 1')).toBe(first);
    expect(nameOf('SELECT 2')).not.toBe(first);
    expect(nameOf('SELECT 3')).toBeUndefined();
    expect(nameOf('SELECT 1')).toBe(first);
  });
});
