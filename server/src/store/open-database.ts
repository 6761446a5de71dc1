import { join } from 'node:path';
import { describeDatabaseUrl } from '../lib/connection-url';
import type { Database } from './database';
import { openPostgresDatabase } from './pg-database';
import { openPgliteDatabase } from './pglite-database';

/** DatabaseSettings is the part of the server configuration that picks the database. */
export interface DatabaseSettings {
  DATABASE_URL?: string;
  DATABASE_POOL_SIZE?: number;
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
 * `<DATA_DIR>/pglite`. Both run the same SQL and migrations.
 */
export async function openDatabase(
  settings: DatabaseSettings,
  onError?: (error: Error) => void,
): Promise<OpenedDatabase> {
  if (settings.DATABASE_URL) {
    const db = await openPostgresDatabase(settings.DATABASE_URL, {
      maxConnections: settings.DATABASE_POOL_SIZE,
      onError,
    });
    return { db, label: describeDatabaseUrl(settings.DATABASE_URL) };
  }
  const folder = join(settings.DATA_DIR, 'pglite');
  return { db: await openPgliteDatabase(folder), label: 'PGlite (embedded)', folder };
}
