// The one seam between the server and its SQL engine: PGlite (embedded, one connection) or a `pg` pool
// (DATABASE_URL). Every statement written against it must be valid PostgreSQL with `$n` parameters.

/** QueryOptions tunes how an engine runs one statement. */
export interface QueryOptions {
  /**
   * reuse keeps the statement prepared on its connection (parsed and planned once, then only bound): for
   * hot statements whose text has a bounded number of shapes, every value in a parameter.
   */
  reuse?: boolean;
}

/** Queryable runs one SQL statement with positional parameters. */
export interface Queryable {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<{ rows: T[] }>;
}

/** Database is a Queryable that can also run a transaction and be closed. */
export interface Database extends Queryable {
  /** transaction runs fn in one transaction, committing if it resolves and rolling back if it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /**
   * session runs fn on one dedicated connection, for session-scoped state such as advisory locks.
   * Engines with a single connection (PGlite) leave it out: they are owned by one process anyway.
   */
  session?<T>(fn: (db: Database) => Promise<T>): Promise<T>;
}
