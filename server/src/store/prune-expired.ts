import type { Queryable } from './database';

/** ExpiringTable is a per-app log table and its time column (a closed list: names go into SQL). */
export type ExpiringTable =
  | { table: 'app_page_views'; timeColumn: 'viewed_at' }
  | { table: 'app_function_logs'; timeColumn: 'logged_at' }
  | { table: 'app_audit_log'; timeColumn: 'logged_at' }
  | { table: 'mail_log'; timeColumn: 'sent_at' };

/**
 * pruneExpired deletes at most batch rows of table older than cutoff (any app) and says how many. Expired
 * rows are found per app through the (app_id, time) index and deleted by primary key (`= ANY (ARRAY(…))`:
 * an `IN (subquery)` is planned as a scan of the whole table).
 */
export async function pruneExpired(
  db: Queryable,
  { table, timeColumn }: ExpiringTable,
  cutoff: string,
  batch: number,
): Promise<number> {
  const { rows } = await db.query<{ deleted: string | number }>(
    `WITH gone AS (
       DELETE FROM ${table} WHERE id = ANY (ARRAY(
         SELECT expired.id FROM apps CROSS JOIN LATERAL (
           SELECT id FROM ${table}
           WHERE app_id = apps.id AND ${timeColumn} < $1
           ORDER BY ${timeColumn} LIMIT $2
         ) AS expired
         LIMIT $2
       )) RETURNING 1
     ) SELECT count(*) AS deleted FROM gone`,
    [cutoff, batch],
  );
  return Number(rows[0]?.deleted ?? 0);
}
