import { describe, expect, it } from 'vitest';
import type { Database, Queryable } from './database';
import { MIGRATION_LOCK_KEY, runMigrations, withAdvisoryLock } from './migrations';

/** fakeDatabase records every statement; withSession adds a session like a pool would have. */
function fakeDatabase(withSession: boolean): { db: Database; log: string[] } {
  const log: string[] = [];
  const queryable = (prefix: string): Queryable => ({
    async query<T>(sql: string, params: unknown[] = []) {
      log.push(`${prefix}${sql.split('\n')[0]}${params.length ? ` ${JSON.stringify(params)}` : ''}`);
      return { rows: [] as T[] };
    },
  });
  const make = (prefix: string): Database => ({
    ...queryable(prefix),
    transaction: (fn) => fn(queryable(`${prefix}tx: `)),
    close: async () => undefined,
  });
  const db = make('');
  if (withSession) {
    db.session = async (fn) => {
      log.push('checkout');
      try {
        return await fn(make('session: '));
      } finally {
        log.push('release');
      }
    };
  }
  return { db, log };
}

describe('withAdvisoryLock', () => {
  it('locks and unlocks on one session around fn', async () => {
    const { db, log } = fakeDatabase(true);
    const result = await withAdvisoryLock(db, '42', async (locked) => {
      await locked.query('SELECT 1');
      return 'done';
    });
    expect(result).toBe('done');
    expect(log).toEqual([
      'checkout',
      'session: SET statement_timeout = 0',
      'session: SELECT pg_advisory_lock($1::bigint) ["42"]',
      'session: SELECT 1',
      'session: SELECT pg_advisory_unlock($1::bigint) ["42"]',
      'session: RESET statement_timeout',
      'release',
    ]);
  });

  it('unlocks when fn throws, and rethrows', async () => {
    const { db, log } = fakeDatabase(true);
    await expect(
      withAdvisoryLock(db, '42', async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(log.slice(-3)).toEqual([
      'session: SELECT pg_advisory_unlock($1::bigint) ["42"]',
      'session: RESET statement_timeout',
      'release',
    ]);
  });

  it('runs fn directly on a database without sessions (PGlite)', async () => {
    const { db, log } = fakeDatabase(false);
    await withAdvisoryLock(db, '42', (locked) => locked.query('SELECT 1'));
    expect(log).toEqual(['SELECT 1']);
  });
});

describe('runMigrations', () => {
  it('applies every migration inside the migration lock', async () => {
    const { db, log } = fakeDatabase(true);
    const applied = await runMigrations(db);
    expect(applied.length).toBeGreaterThan(0);
    expect(log[2]).toBe(`session: SELECT pg_advisory_lock($1::bigint) ["${MIGRATION_LOCK_KEY}"]`);
    expect(log.at(-3)).toContain('pg_advisory_unlock');
    expect(log.filter((line) => line.includes('INSERT INTO schema_migrations'))).toHaveLength(applied.length);
    expect(log.every((line) => line.startsWith('session') || ['checkout', 'release'].includes(line))).toBe(
      true,
    );
  });
});
