// The console's Logs page: function calls, page views and the audit log, each a page of newest-first rows
// with a `next` cursor (keyset paging, console-logs-store.ts), and one call's redacted output on opening it.
import { NotFoundError } from '../../lib/errors';
import type {
  ConsoleAuditQuery,
  ConsoleFunctionLogsQuery,
  ConsolePageViewsQuery,
} from '../../schemas/console-logs';
import type { ConsoleLogsStore, LogCursor, LogRange } from '../../store/console-logs-store';
import { timeRangeOf } from '../app-logs/log-range';

/** LogPage is one page of rows and the cursor of the next (null: this is the last). */
export interface LogPage<Item> {
  items: Item[];
  next: string | null;
}

/** ConsoleLogs are the Logs page's reads. */
export type ConsoleLogs = ReturnType<typeof createConsoleLogs>;

/** cursorOf reads a `<time>~<id>` cursor (the schema checked its shape). */
function cursorOf(before: string | undefined): LogCursor | undefined {
  if (before === undefined) return undefined;
  const [at = '', id = '0'] = before.split('~');
  return { at, id };
}

function rangeOf(appId: string, query: { from?: string; to?: string; before?: string; limit: number }) {
  // One row more than asked says whether a next page exists.
  const range: LogRange = {
    appId,
    ...timeRangeOf(query),
    before: cursorOf(query.before),
    limit: query.limit + 1,
  };
  return range;
}

function pageOf<Row extends { id: string; cursor_at: string }, Item>(
  rows: Row[],
  limit: number,
  view: (row: Row) => Item,
): LogPage<Item> {
  const last = rows.length > limit ? rows[limit - 1] : undefined;
  return { items: rows.slice(0, limit).map(view), next: last ? `${last.cursor_at}~${last.id}` : null };
}

/** createConsoleLogs reads the Logs page's rows from store. */
export function createConsoleLogs(store: ConsoleLogsStore) {
  return {
    async functionCalls(appId: string, query: ConsoleFunctionLogsQuery) {
      const rows = await store.functionCalls({
        ...rangeOf(appId, query),
        functionName: query.function,
        requestId: query.request_id,
        status: query.status,
        userId: query.user,
      });
      return pageOf(rows, query.limit, ({ cursor_at: _cursor, function_name, logged_at, ...row }) => ({
        ...row,
        function: function_name,
        created_date: logged_at,
      }));
    },
    async functionOutput(appId: string, id: string) {
      const output = await store.functionOutput(appId, id);
      if (!output) throw new NotFoundError('No such function call');
      return { id, output };
    },
    async pageViews(appId: string, query: ConsolePageViewsQuery) {
      const rows = await store.pageViews({ ...rangeOf(appId, query), page: query.page, userId: query.user });
      return pageOf(rows, query.limit, ({ cursor_at: _cursor, logged_at, ...row }) => ({
        ...row,
        created_date: logged_at,
      }));
    },
    async audit(appId: string, query: ConsoleAuditQuery) {
      const rows = await store.audit({ ...rangeOf(appId, query), user: query.user });
      return pageOf(rows, query.limit, ({ cursor_at: _cursor, ...row }) => row);
    },
  };
}
