import { describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_ENGINES } from '../test-support/open-test-database';
import { createStatementNames } from './statement-names';

// Statements run with `reuse` are prepared once per connection and then only bound: same answers as
// unnamed statements, inside and outside transactions, and a failed run leaves nothing half-prepared.
// PGlite runs in its worker thread, as the server runs it (the in-process one ignores `reuse`).

const quiet = { warn: () => undefined, error: () => undefined };

describe.each(TEST_ENGINES)('reused statements on %s', (engine) => {
  const open = () =>
    openTestDatabase({
      engine,
      name: 'prepared',
      pgliteWorker: { queryTimeoutMs: 10_000, log: quiet },
    });

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
