import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Database } from '../store/database';
import { openPostgresDatabase, type PostgresOptions } from '../store/pg-database';

/** ScratchPostgres is a database made for one test file: close drops it. */
export interface ScratchPostgres {
  db: Database;
  close(): Promise<void>;
}

/**
 * openScratchPostgres creates a fresh database (named prefix_pid_random) on the PostgreSQL server at
 * adminUrl and opens it with a small pool. It throws when the server cannot be reached, so a test file may
 * skip with the reason instead.
 */
export async function openScratchPostgres(
  adminUrl: string,
  prefix: string,
  options: PostgresOptions = {},
): Promise<ScratchPostgres> {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
  } catch (error) {
    await admin.end().catch(() => undefined);
    throw error;
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = await openPostgresDatabase(url.toString(), { maxConnections: 2, ...options });
  return {
    db,
    async close() {
      await db.close();
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    },
  };
}
