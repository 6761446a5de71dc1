import type { Queryable } from './database';
import { pruneExpired } from './prune-expired';

/** FunctionLogRow is one backend function call as stored (its output already redacted and bounded). */
export interface FunctionLogRow {
  app_id: string;
  function_name: string;
  request_id: string | null;
  trigger: string;
  /** user_id is the signed-in caller's id (null: anonymous, an automation). */
  user_id: string | null;
  status: number;
  duration_ms: number;
  output: { stream: string; line: string }[];
  output_dropped: number;
  /** logged_at is an ISO 8601 date-time (when the call ended). */
  logged_at: string;
}

/** StoredFunctionLog is a call read back, with its id. */
export interface StoredFunctionLog extends Omit<FunctionLogRow, 'app_id'> {
  id: string;
}

/** FunctionLogFilter narrows a read to one app's calls in [from, to). */
export interface FunctionLogFilter {
  appId: string;
  from: string;
  to: string;
  functionName?: string | undefined;
  requestId?: string | undefined;
}

const ISO_TIME = `to_char(logged_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** createFunctionLogsStore returns the SQL for the app_function_logs table (migration 21). */
export function createFunctionLogsStore(db: Queryable) {
  return {
    /**
     * insertBatch stores calls (of any apps) in one statement and answers their ids, in the rows' order
     * (PostgreSQL inserts and returns a function scan's rows in the order it produces them).
     */
    async insertBatch(rows: FunctionLogRow[]): Promise<string[]> {
      const inserted = await db.query<{ id: string }>(
        `INSERT INTO app_function_logs
           (app_id, function_name, request_id, trigger, user_id, status, duration_ms, output, output_dropped,
            logged_at)
         SELECT r.app_id, r.function_name, r.request_id, r.trigger, r.user_id, r.status, r.duration_ms, r.output,
           r.output_dropped, r.logged_at
         FROM jsonb_to_recordset($1::jsonb) AS r(
           app_id text, function_name text, request_id text, trigger text, user_id text, status int,
           duration_ms int, output jsonb, output_dropped int, logged_at timestamptz
         )
         RETURNING id::text AS id`,
        [JSON.stringify(rows)],
      );
      return inserted.rows.map((row) => row.id);
    },
    /** list returns calls newest first, limit after skip. */
    async list(filter: FunctionLogFilter, limit: number, skip: number): Promise<StoredFunctionLog[]> {
      const params: unknown[] = [filter.appId, filter.from, filter.to];
      let where = 'app_id = $1 AND logged_at >= $2 AND logged_at < $3';
      if (filter.functionName !== undefined) {
        params.push(filter.functionName);
        where += ` AND function_name = $${params.length}`;
      }
      if (filter.requestId !== undefined) {
        params.push(filter.requestId);
        where += ` AND request_id = $${params.length}`;
      }
      const n = params.length;
      const { rows } = await db.query<StoredFunctionLog>(
        `SELECT id::text AS id, function_name, request_id, trigger, status, duration_ms, output,
           output_dropped, ${ISO_TIME} AS logged_at
         FROM app_function_logs WHERE ${where}
         ORDER BY app_function_logs.logged_at DESC, app_function_logs.id DESC LIMIT $${n + 1} OFFSET $${n + 2}`,
        [...params, limit, skip],
      );
      return rows.map((row) => ({
        ...row,
        // PGlite and pg both parse jsonb; a driver handing text back is parsed here.
        output:
          typeof row.output === 'string'
            ? (JSON.parse(row.output) as StoredFunctionLog['output'])
            : row.output,
        status: Number(row.status),
        duration_ms: Number(row.duration_ms),
        output_dropped: Number(row.output_dropped),
      }));
    },
    /** pruneBefore deletes at most batch calls older than cutoff (any app) and says how many. */
    async pruneBefore(cutoff: string, batch: number): Promise<number> {
      return pruneExpired(db, { table: 'app_function_logs', timeColumn: 'logged_at' }, cutoff, batch);
    },
  };
}

export type FunctionLogsStore = ReturnType<typeof createFunctionLogsStore>;
