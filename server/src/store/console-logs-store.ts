import type { Queryable } from './database';

// The console's Logs page reads: function calls, page views and the audit log, each newest first and paged
// by keyset on (time, id), never OFFSET, so the millionth row costs what the first does (the indexes are
// migrations 9, 21, 27, 28 and 32). Times leave SQL as ISO strings so PGlite and pg answer alike; a row's
// cursor keeps microseconds, so paging never skips rows logged within one millisecond.

/** LogCursor is where a page ends: the last row's time (to the microsecond) and id. */
export interface LogCursor {
  at: string;
  id: string;
}

/** LogRange is a read's app, time range [from, to) and where the previous page ended. */
export interface LogRange {
  appId: string;
  from: string;
  to: string;
  before?: LogCursor | undefined;
  limit: number;
}

/** ConsoleFunctionCall is one call as the Logs page lists it (its output is read on opening it). */
export interface ConsoleFunctionCall {
  id: string;
  function_name: string;
  request_id: string | null;
  trigger: string;
  user_id: string | null;
  status: number;
  duration_ms: number;
  output_dropped: number;
  logged_at: string;
  cursor_at: string;
}

/** ConsolePageView is one page view as the Logs page lists it. */
export interface ConsolePageView {
  id: string;
  page: string;
  user_id: string | null;
  referrer: string | null;
  logged_at: string;
  cursor_at: string;
}

/** ConsoleAuditRow is one audit entry as the Logs page lists it. */
export interface ConsoleAuditRow {
  id: string;
  actor: unknown;
  action: string;
  target: string;
  before: unknown;
  after: unknown;
  logged_at: string;
  cursor_at: string;
}

const isoOf = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS logged_at, ` +
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_at`;

/** Where builds one read's WHERE clause and parameters, starting from the app, range and cursor. */
class Where {
  readonly params: unknown[];
  sql: string;
  constructor(range: LogRange, time: string) {
    this.params = [range.appId, range.from, range.to];
    this.sql = `app_id = $1 AND ${time} >= $2 AND ${time} < $3`;
    if (range.before) {
      this.params.push(range.before.at, range.before.id);
      const n = this.params.length;
      this.sql += ` AND (${time}, id) < ($${n - 1}::timestamptz, $${n}::bigint)`;
    }
  }
  equals(column: string, value: string | undefined): this {
    if (value === undefined) return this;
    this.params.push(value);
    this.sql += ` AND ${column} = $${this.params.length}`;
    return this;
  }
  raw(condition: string | undefined): this {
    if (condition) this.sql += ` AND ${condition}`;
    return this;
  }
  /**
   * tail is the order and limit shared by every read (the limit is a bounded integer). The columns are
   * qualified: the SELECT's `id` and `logged_at` are text, and ORDER BY would otherwise sort those.
   */
  tail(table: string, time: string, limit: number): string {
    return `WHERE ${this.sql} ORDER BY ${table}.${time} DESC, ${table}.id DESC LIMIT ${Math.trunc(limit)}`;
  }
}

/** FunctionCallFilter narrows the function calls read. */
export interface FunctionCallFilter extends LogRange {
  functionName?: string | undefined;
  requestId?: string | undefined;
  status?: 'ok' | 'error' | undefined;
  /** userId is the signed-in caller's id. */
  userId?: string | undefined;
}

/** createConsoleLogsStore returns the Logs page's reads. */
export function createConsoleLogsStore(db: Queryable) {
  return {
    async functionCalls(filter: FunctionCallFilter): Promise<ConsoleFunctionCall[]> {
      const where = new Where(filter, 'logged_at')
        .equals('function_name', filter.functionName)
        .equals('request_id', filter.requestId)
        .equals('user_id', filter.userId)
        .raw(filter.status === 'error' ? 'status >= 400' : filter.status === 'ok' ? 'status < 400' : '');
      const { rows } = await db.query<ConsoleFunctionCall>(
        `SELECT id::text AS id, function_name, request_id, trigger, user_id, status, duration_ms, output_dropped,
           ${isoOf('logged_at')}
         FROM app_function_logs ${where.tail('app_function_logs', 'logged_at', filter.limit)}`,
        where.params,
      );
      return rows.map((row) => ({
        ...row,
        status: Number(row.status),
        duration_ms: Number(row.duration_ms),
        output_dropped: Number(row.output_dropped),
      }));
    },
    /** functionOutput is one call's stored (already redacted) output, or null when there is no such call. */
    async functionOutput(appId: string, id: string): Promise<{ stream: string; line: string }[] | null> {
      const { rows } = await db.query<{ output: unknown }>(
        'SELECT output FROM app_function_logs WHERE app_id = $1 AND id = $2::bigint',
        [appId, id],
      );
      const output = rows[0]?.output;
      if (output === undefined) return null;
      return (typeof output === 'string' ? JSON.parse(output) : output) as { stream: string; line: string }[];
    },
    async pageViews(
      filter: LogRange & { page?: string | undefined; userId?: string | undefined },
    ): Promise<ConsolePageView[]> {
      const where = new Where(filter, 'viewed_at')
        .equals('page', filter.page)
        .equals('user_id', filter.userId);
      const { rows } = await db.query<ConsolePageView>(
        `SELECT id::text AS id, page, user_id, referrer, ${isoOf('viewed_at')}
         FROM app_page_views ${where.tail('app_page_views', 'viewed_at', filter.limit)}`,
        where.params,
      );
      return rows;
    },
    /** audit reads the audit log; user matches the actor's id or email. */
    async audit(filter: LogRange & { user?: string | undefined }): Promise<ConsoleAuditRow[]> {
      const where = new Where(filter, 'logged_at');
      if (filter.user !== undefined) {
        where.params.push(filter.user);
        const n = where.params.length;
        where.raw(`(actor->>'id' = $${n} OR actor->>'email' = $${n})`);
      }
      const { rows } = await db.query<ConsoleAuditRow>(
        `SELECT id::text AS id, actor, action, target, before, after, ${isoOf('logged_at')}
         FROM app_audit_log ${where.tail('app_audit_log', 'logged_at', filter.limit)}`,
        where.params,
      );
      return rows;
    },
  };
}

export type ConsoleLogsStore = ReturnType<typeof createConsoleLogsStore>;
