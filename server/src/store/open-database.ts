import { join } from 'node:path';
import { describeDatabaseUrl } from '../lib/connection-url';
import type { Database } from './database';
import { openPostgresDatabase } from './pg-database';
import { openPgliteWorkerDatabase, type DatabaseLog } from './pglite-worker-database';

/** DatabaseSettings is the part of the server configuration that picks the database. */
export interface DatabaseSettings {
  DATABASE_URL?: string;
  DATABASE_POOL_SIZE?: number;
  /** DATABASE_QUERY_TIMEOUT_MS is how long one statement may run (PostgreSQL's statement_timeout). */
  DATABASE_QUERY_TIMEOUT_MS: number;
  /** ENTITY_REGEX_DEADLINE_MS is how long a statement may scan with `$regex` (default by store, below). */
  ENTITY_REGEX_DEADLINE_MS?: number | undefined;
  DATA_DIR: string;
}

/**
 * REGEX_DEADLINE_MS is how long a statement may scan with `$regex` by default. PGlite runs one statement
 * at a time for every caller, so a scan holds everyone's reads: 300 ms. PostgreSQL runs them side by side
 * on its pool: 2 s. A deadline past DATABASE_QUERY_TIMEOUT_MS is never reached: that one stops it first.
 */
export const REGEX_DEADLINE_MS = { pglite: 300, postgres: 2_000 } as const;

/**
 * sessionSettings are the settings every connection holds: `queen.regex_deadline_ms` is read by the
 * `$regex` condition of entity queries (entity-filter-sql.ts), which stops its statement past it with
 * SQLSTATE QR001 (migration 23). It is the one deadline PGlite can keep without a restart: PGlite has no
 * timer to honour statement_timeout, so a statement past DATABASE_QUERY_TIMEOUT_MS restarts its engine.
 */
function sessionSettings(settings: DatabaseSettings, store: keyof typeof REGEX_DEADLINE_MS) {
  const deadline = settings.ENTITY_REGEX_DEADLINE_MS ?? REGEX_DEADLINE_MS[store];
  return { 'queen.regex_deadline_ms': String(deadline) };
}

/** OpenedDatabase is the database with how to name it in logs (no credentials). */
export interface OpenedDatabase {
  db: Database;
  /** label is `PostgreSQL <host>:<port>/<db>` or `PGlite (embedded)`. */
  label: string;
  /** folder is where PGlite keeps its files; absent for PostgreSQL. */
  folder?: string;
}

/**
 * openDatabase opens PostgreSQL through a pool when DATABASE_URL is set, else the embedded PGlite in
 * `<DATA_DIR>/pglite`, in a worker thread. Both run the same SQL and migrations, and both stop a statement
 * that runs longer than DATABASE_QUERY_TIMEOUT_MS (it fails with DatabaseUnavailableError).
 */
export async function openDatabase(
  settings: DatabaseSettings,
  onError?: (error: Error) => void,
  log?: DatabaseLog,
): Promise<OpenedDatabase> {
  if (settings.DATABASE_URL) {
    const db = await openPostgresDatabase(settings.DATABASE_URL, {
      maxConnections: settings.DATABASE_POOL_SIZE,
      queryTimeoutMs: settings.DATABASE_QUERY_TIMEOUT_MS,
      sessionSettings: sessionSettings(settings, 'postgres'),
      onError,
    });
    return { db, label: describeDatabaseUrl(settings.DATABASE_URL) };
  }
  const folder = join(settings.DATA_DIR, 'pglite');
  const db = await openPgliteWorkerDatabase(folder, {
    queryTimeoutMs: settings.DATABASE_QUERY_TIMEOUT_MS,
    sessionSettings: sessionSettings(settings, 'pglite'),
    log,
  });
  return { db, label: 'PGlite (embedded)', folder };
}
