import type { Database } from '../store/database';
import { runMigrations } from '../store/migrations';
import { openMigratedPglite } from './migrated-pglite';
import { openScratchPglite } from './scratch-pglite';
import { openScratchPostgres } from './scratch-postgres';

// The one way a unit test gets a database: PGlite always, PostgreSQL where DATABASE_URL names a server (as
// .ci/run sets it), migrated or empty. A PostgreSQL one is a fresh database on that server, dropped on close.

export type TestEngine = 'pglite' | 'postgres';

/** TEST_ENGINES are the engines a store contract runs on here: PGlite, and PostgreSQL with DATABASE_URL. */
export const TEST_ENGINES: readonly TestEngine[] = process.env.DATABASE_URL
  ? ['pglite', 'postgres']
  : ['pglite'];

export interface TestDatabase {
  db: Database;
  engine: TestEngine;
  close(): Promise<void>;
}

/**
 * openTestDatabase opens a database on engine: migrated (default; PGlite copies the run's migrated
 * template) or empty. `name` prefixes a PostgreSQL database's name, to tell test files apart.
 *
 * @example const { db, close } = await openTestDatabase({ engine: 'postgres', name: 'filter_sql' });
 */
export async function openTestDatabase(options: {
  engine: TestEngine;
  migrated?: boolean;
  name?: string;
}): Promise<TestDatabase> {
  const migrated = options.migrated ?? true;
  const name = options.name ?? 'unit';
  if (options.engine === 'pglite') {
    if (migrated) {
      const db = await openMigratedPglite();
      return { db, engine: 'pglite', close: () => db.close() };
    }
    const scratch = await openScratchPglite(name);
    return { ...scratch, engine: 'pglite' };
  }
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('openTestDatabase: PostgreSQL needs DATABASE_URL (see .ci/run)');
  const scratch = await openScratchPostgres(adminUrl, name);
  if (migrated) await runMigrations(scratch.db);
  return { ...scratch, engine: 'postgres' };
}
