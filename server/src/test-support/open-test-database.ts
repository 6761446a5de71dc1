import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from '../store/database';
import { runMigrations } from '../store/migrations';
import type { PostgresOptions } from '../store/pg-database';
import { openPgliteDatabase } from '../store/pglite-database';
import { openPgliteWorkerDatabase, type PgliteWorkerOptions } from '../store/pglite-worker-database';
import { copyMigratedPglite, migratedPgliteFolder } from './migrated-pglite';
import { openScratchPostgres } from './scratch-postgres';

// The one way a unit test gets a database: PGlite always, PostgreSQL where DATABASE_URL names a server (as
// .ci/run sets it), migrated or empty. A PostgreSQL one is a fresh database on that server, dropped on close.
// Tests of the opening itself (store/pglite-worker-database.test.ts, the `openDatabase` paths of
// store/regex-deadline.test.ts) and the run's template (pglite-template.global.ts) open theirs directly.

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

export interface TestDatabaseOptions {
  engine: TestEngine;
  /** migrated (default true): PGlite copies the run's migrated template; PostgreSQL runs the migrations. */
  migrated?: boolean;
  /** name prefixes a PostgreSQL database's name (and an empty PGlite's folder), to tell test files apart. */
  name?: string;
  /**
   * pgliteWorker opens PGlite in its worker thread, as the server does (reused statements, the watchdog
   * that restarts it after queryTimeoutMs); default the plain in-process PGlite.
   */
  pgliteWorker?: PgliteWorkerOptions;
  /** folder is where a PGlite database goes (the caller keeps and removes it); default a fresh folder. */
  folder?: string;
  /** postgres sets PostgreSQL's pool: statement_timeout, session settings, its size. */
  postgres?: PostgresOptions;
}

/**
 * openTestDatabase opens a database on engine: migrated (default; PGlite copies the run's migrated
 * template) or empty. close removes what it made (a PostgreSQL database, a PGlite folder).
 *
 * @example const { db, close } = await openTestDatabase({ engine: 'postgres', name: 'filter_sql' });
 */
export async function openTestDatabase(options: TestDatabaseOptions): Promise<TestDatabase> {
  const migrated = options.migrated ?? true;
  const name = options.name ?? 'unit';
  if (options.engine === 'pglite') {
    const owned = !options.folder;
    let folder: string;
    if (options.folder) {
      folder = options.folder;
      if (migrated) await copyMigratedPglite(folder);
    } else {
      folder = migrated ? await migratedPgliteFolder() : await mkdtemp(join(tmpdir(), `${name}-pglite-`));
    }
    const db = options.pgliteWorker
      ? await openPgliteWorkerDatabase(folder, options.pgliteWorker)
      : await openPgliteDatabase(folder);
    return {
      db,
      engine: 'pglite',
      async close() {
        await db.close();
        if (owned) await rm(folder, { recursive: true, force: true });
      },
    };
  }
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('openTestDatabase: PostgreSQL needs DATABASE_URL (see .ci/run)');
  const scratch = await openScratchPostgres(adminUrl, name, options.postgres);
  if (migrated) await runMigrations(scratch.db);
  return { ...scratch, engine: 'postgres' };
}
