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
  DATA_DIR: string;
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
      onError,
    });
    return { db, label: describeDatabaseUrl(settings.DATABASE_URL) };
  }
  const folder = join(settings.DATA_DIR, 'pglite');
  const db = await openPgliteWorkerDatabase(folder, {
    queryTimeoutMs: settings.DATABASE_QUERY_TIMEOUT_MS,
    log,
  });
  return { db, label: 'PGlite (embedded)', folder };
}
