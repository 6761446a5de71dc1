import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

// PostgreSQL for the `api-postgres` project: DATABASE_URL names a server and a database the test user may
// connect to (it needs CREATEDB). Every test server gets its own fresh database, dropped when it stops.

/** adminUrl is the DATABASE_URL the e2e run was given, or undefined when PostgreSQL tests are off. */
export function adminUrl(): string | undefined {
  return process.env.DATABASE_URL || undefined;
}

function requireAdminUrl(): string {
  const url = adminUrl();
  if (!url) throw new Error('DATABASE_URL is not set: PostgreSQL mode needs it (see .ci/run)');
  return url;
}

async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: requireAdminUrl(), application_name: 'queen-e2e-admin' });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** databaseUrlFor returns DATABASE_URL with its database name replaced by name. */
export function databaseUrlFor(name: string): string {
  const url = new URL(requireAdminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

/** POSTGRES_TEMPLATE_ENV names the migrated database fresh ones are copied from (global-setup.ts). */
export const POSTGRES_TEMPLATE_ENV = 'E2E_POSTGRES_TEMPLATE';

/**
 * createDatabase creates a uniquely named database and returns its name and URL: a copy of the run's
 * migrated template (a server then starts without migrating), or empty with `{ migrated: false }` (for
 * the specs about migrating).
 */
export async function createDatabase(
  options: { migrated?: boolean } = {},
): Promise<{ name: string; url: string }> {
  const name = `queen_e2e_${process.pid}_${randomBytes(4).toString('hex')}`;
  const template = options.migrated === false ? undefined : process.env[POSTGRES_TEMPLATE_ENV];
  await withAdmin((client) =>
    client.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`),
  );
  return { name, url: databaseUrlFor(name) };
}

/** createTemplateDatabase makes the empty database the run migrates once (global-setup.ts). */
export async function createTemplateDatabase(): Promise<{ name: string; url: string }> {
  const name = `queen_e2e_template_${process.pid}_${randomBytes(4).toString('hex')}`;
  await withAdmin((client) => client.query(`CREATE DATABASE "${name}"`));
  return { name, url: databaseUrlFor(name) };
}

/** dropDatabase drops the database called name, ending any connection still open to it. */
export async function dropDatabase(name: string): Promise<void> {
  await withAdmin((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

/** ServerData is where a test server kept its data: a DATA_DIR, and a PostgreSQL URL in that mode. */
export interface ServerData {
  dataDir: string;
  databaseUrl?: string;
}

/** Query runs one SQL statement and returns its rows. */
export type Query = <T>(sql: string, params?: unknown[]) => Promise<T[]>;

/**
 * withServerDatabase opens the database a test server used for fn: its PostgreSQL database, or its PGlite
 * folder (then only once that server has stopped: PGlite is single-process).
 */
export async function withServerDatabase<T>(
  server: ServerData,
  fn: (query: Query) => Promise<T>,
): Promise<T> {
  if (server.databaseUrl) {
    const client = new pg.Client({ connectionString: server.databaseUrl, application_name: 'queen-e2e' });
    await client.connect();
    try {
      return await fn(async (sql, params = []) => (await client.query(sql, params)).rows);
    } finally {
      await client.end();
    }
  }
  const db = new PGlite(join(server.dataDir, 'pglite'));
  try {
    return await fn(async <R>(sql: string, params: unknown[] = []) => (await db.query<R>(sql, params)).rows);
  } finally {
    await db.close();
  }
}

/** dumpDatabaseText returns every row of every public table as JSON text, to search for leaked secrets. */
export async function dumpDatabaseText(server: ServerData): Promise<string> {
  return withServerDatabase(server, async (query) => {
    const tables = await query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
    );
    let dump = '';
    for (const { table_name } of tables) {
      const rows = await query<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM "${table_name}" t`);
      dump += rows.map((r) => r.row).join('\n') + '\n';
    }
    return dump;
  });
}
