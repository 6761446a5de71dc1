// The console's Functions page reads: each function's calls over the last 24 h summed in SQL
// (percentile_cont runs in PGlite and PostgreSQL alike), its schedules, and its automations' last runs.
import type { Queryable } from './database';

/** FunctionStatsRow is one function's last 24 h of calls. */
export interface FunctionStatsRow {
  function_name: string;
  calls: number;
  errors: number;
  p50_ms: number | null;
  p95_ms: number | null;
  last_status: number | null;
  last_at: string | null;
}

/** ScheduleStateRow is one schedule as the runner keeps it. */
export interface ScheduleStateRow {
  function_name: string;
  automation_name: string;
  next_run_at: string | null;
  last_run_at: string | null;
  runs: number;
}

/** AutomationRunRow is one automation call of a function, as its log stores it. */
export interface AutomationRunRow {
  function_name: string;
  status: number;
  duration_ms: number;
  logged_at: string;
}

const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const numberOrNull = (value: unknown) => (value === null || value === undefined ? null : Number(value));

/** createFunctionStatsStore returns the SQL of the Functions page (tables of migrations 21 and the automations'). */
export function createFunctionStatsStore(db: Queryable) {
  return {
    /** stats sums appId's calls logged since `since`, one row per function called. */
    async stats(appId: string, since: string): Promise<FunctionStatsRow[]> {
      const { rows } = await db.query<FunctionStatsRow>(
        `SELECT function_name, count(*) AS calls,
           count(*) FILTER (WHERE status >= 400) AS errors,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY duration_ms) AS p50_ms,
           percentile_cont(0.95) WITHIN GROUP (ORDER BY duration_ms) AS p95_ms,
           (array_agg(status ORDER BY logged_at DESC, id DESC))[1] AS last_status,
           ${iso('max(logged_at)')} AS last_at
         FROM app_function_logs WHERE app_id = $1 AND logged_at >= $2
         GROUP BY function_name`,
        [appId, since],
      );
      return rows.map((row) => ({
        ...row,
        calls: Number(row.calls),
        errors: Number(row.errors),
        p50_ms: numberOrNull(row.p50_ms),
        p95_ms: numberOrNull(row.p95_ms),
        last_status: numberOrNull(row.last_status),
      }));
    },
    /** schedules are appId's schedules with their next and last run. */
    async schedules(appId: string): Promise<ScheduleStateRow[]> {
      const { rows } = await db.query<ScheduleStateRow>(
        `SELECT function_name, automation_name, ${iso('next_run_at')} AS next_run_at,
           ${iso('last_run_at')} AS last_run_at, runs
         FROM automation_schedules WHERE app_id = $1 ORDER BY function_name, automation_name`,
        [appId],
      );
      return rows.map((row) => ({ ...row, runs: Number(row.runs) }));
    },
    /** automationRuns are functionName's last `limit` automation calls, newest first. */
    async automationRuns(appId: string, functionName: string, limit: number): Promise<AutomationRunRow[]> {
      const { rows } = await db.query<AutomationRunRow>(
        `SELECT function_name, status, duration_ms, ${iso('logged_at')} AS logged_at
         FROM app_function_logs WHERE app_id = $1 AND function_name = $2 AND trigger = 'automation'
         ORDER BY logged_at DESC, id DESC LIMIT $3`,
        [appId, functionName, limit],
      );
      return rows.map((row) => ({
        ...row,
        status: Number(row.status),
        duration_ms: Number(row.duration_ms),
      }));
    },
  };
}

export type FunctionStatsStore = ReturnType<typeof createFunctionStatsStore>;
