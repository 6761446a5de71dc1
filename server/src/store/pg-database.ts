import pg from 'pg';
import { describeDatabaseUrl } from '../lib/connection-url';
import { DatabaseUnavailableError } from '../lib/errors';
import type { Database, Queryable, QueryOptions } from './database';
import { createStatementNames } from './statement-names';

/** PostgresOptions tunes the pool behind DATABASE_URL. */
export interface PostgresOptions {
  /** maxConnections caps the pool (default 10). */
  maxConnections?: number;
  /** sessionSettings are set on every connection (such as queen.regex_deadline_ms). */
  sessionSettings?: Record<string, string>;
  /** queryTimeoutMs is PostgreSQL's statement_timeout on every connection (default: none). */
  queryTimeoutMs?: number;
  /** onError hears errors of idle connections (a restart or a dropped connection), which are not fatal. */
  onError?: (error: Error) => void;
}

// Parse like PGlite does, so stores see the same values on both engines: int8 (count(*), bigserial) as a
// number while it is exact, and a date as UTC midnight rather than local midnight.
const types = {
  getTypeParser(oid: number, format?: string) {
    if (oid === pg.types.builtins.INT8) {
      return (value: string) => {
        const big = BigInt(value);
        return big < Number.MIN_SAFE_INTEGER || big > Number.MAX_SAFE_INTEGER ? big : Number(big);
      };
    }
    if (oid === pg.types.builtins.DATE) return (value: string) => new Date(value);
    return format === 'binary' ? pg.types.getTypeParser(oid, 'binary') : pg.types.getTypeParser(oid, 'text');
  },
} as pg.CustomTypesConfig;

// SQLSTATE query_canceled: statement_timeout stopped the statement (or an operator cancelled it).
const QUERY_CANCELED = '57014';

// node-postgres prepares a named statement once per connection and then only binds it.
const statementName = createStatementNames();

function queryable(target: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<T>(sql: string, params: unknown[] = [], options: QueryOptions = {}) {
      try {
        const name = options.reuse ? statementName(sql) : undefined;
        const result = await target.query(
          name ? { name, text: sql, values: params } : { text: sql, values: params },
        );
        return { rows: result.rows as T[] };
      } catch (error) {
        if ((error as { code?: unknown }).code !== QUERY_CANCELED) throw error;
        throw new DatabaseUnavailableError('The database did not answer in time: try again in a moment');
      }
    },
  };
}

// Connections whose ROLLBACK failed: they are broken, and releasing one with an error discards it.
const broken = new WeakSet<pg.PoolClient>();

async function inTransaction<T>(client: pg.PoolClient, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await fn(queryable(client));
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => broken.add(client));
    throw error;
  }
}

/** withClient checks a connection out of the pool for fn and returns it (or discards it if broken). */
async function withClient<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    return await fn(client);
  } finally {
    // NB: pg-pool also discards a client whose connection ended while checked out.
    client.release(broken.has(client) ? new Error('connection broken during ROLLBACK') : undefined);
  }
}

function pinned(client: pg.PoolClient): Database {
  return {
    ...queryable(client),
    transaction: (fn) => inTransaction(client, fn),
    // The owner of the session releases the connection; closing it here would break that.
    close: async () => undefined,
  };
}

/** startupOptions writes settings as the `options` start-up parameter: `-c name=value`, spaces escaped. */
const startupOptions = (settings: Record<string, string>) =>
  Object.entries(settings)
    .map(([name, value]) => `-c ${name}=${value.replace(/[\\ ]/g, (c) => `\\${c}`)}`)
    .join(' ');

/**
 * openPostgresDatabase connects a `pg` pool to databaseUrl and checks it answers, failing with a message
 * that names the server (never the password).
 */
export async function openPostgresDatabase(
  databaseUrl: string,
  options: PostgresOptions = {},
): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: 10_000,
    idleTimeoutMillis: 30_000,
    application_name: 'queen-server',
    // The server stops a runaway statement itself, so one request cannot hold a connection forever.
    ...(options.queryTimeoutMs ? { statement_timeout: options.queryTimeoutMs } : {}),
    // Sent in each connection's start-up packet, so no statement runs before they hold.
    ...(options.sessionSettings ? { options: startupOptions(options.sessionSettings) } : {}),
    types,
  });
  // NB: without a listener, an idle connection's error (PostgreSQL restarting) would crash the process.
  pool.on('error', (error) => options.onError?.(error));
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end().catch(() => undefined);
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Cannot connect to ${describeDatabaseUrl(databaseUrl)} (DATABASE_URL): ${reason}`);
  }
  return {
    ...queryable(pool),
    transaction: (fn) => withClient(pool, (client) => inTransaction(client, fn)),
    session: (fn) => withClient(pool, (client) => fn(pinned(client))),
    close: () => pool.end(),
  };
}
