import { mkdir } from 'node:fs/promises';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import type { Database, Queryable } from './database';

function queryable(target: PGlite | Transaction): Queryable {
  return {
    async query<T>(sql: string, params: unknown[] = []) {
      const result = await target.query<T>(sql, params);
      return { rows: result.rows };
    },
  };
}

/** openPgliteDatabase opens (creating if needed) an embedded PostgreSQL in folder. */
export async function openPgliteDatabase(folder: string): Promise<Database> {
  await mkdir(folder, { recursive: true });
  const pglite = new PGlite(folder);
  await pglite.waitReady;
  return {
    ...queryable(pglite),
    transaction: (fn) => pglite.transaction((tx) => fn(queryable(tx))),
    close: () => pglite.close(),
  };
}
