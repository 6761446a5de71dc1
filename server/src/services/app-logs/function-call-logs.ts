// Backend function calls as app logs (`fetchLogs` with `type=function`): buffered and written in batches
// like page views, listed newest first, pruned with them. Apart from page views (app-logs-service.ts),
// which compose it, so each closure holds one kind of log.
import type { FetchLogsQuery } from '../../schemas/app-logs';
import type { FunctionLogRow, FunctionLogsStore, StoredFunctionLog } from '../../store/function-logs-store';
import type { FunctionCallRecord } from '../functions/functions-service';
import { createBatchWriter } from './batch-writer';
import type { LiveFunctionCall, LogFeed } from './log-feed';
import { timeRangeOf } from './log-range';

/** FunctionCallView is one call as the admin API lists it. */
export interface FunctionCallView {
  id: string;
  function: string;
  request_id: string | null;
  trigger: string;
  status: number;
  duration_ms: number;
  output: { stream: string; line: string }[];
  output_dropped: number;
  created_date: string;
}

/** FunctionCallPage is one page of calls, newest first, with has_more for the next skip. */
export interface FunctionCallPage {
  items: (FunctionCallView & { type: 'function' })[];
  has_more: boolean;
  limit: number;
  skip: number;
}

/** FunctionCallLogs are the backend function calls of every app this instance serves. */
export interface FunctionCallLogs {
  /** record buffers one call of appId; false when it was dropped (no store, buffer full or closing). */
  record(appId: string, call: FunctionCallRecord): boolean;
  /** fetch lists appId's calls newest first (this instance's buffered ones written first). */
  fetch(appId: string, query: FetchLogsQuery): Promise<FunctionCallPage>;
  /** prune deletes calls logged before cutoff, batch rows per statement, and says how many. */
  prune(cutoff: string, batch: number): Promise<number>;
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** functionCallView is a stored call as the admin API lists it. */
export function functionCallView(row: StoredFunctionLog): FunctionCallView {
  return {
    id: row.id,
    function: row.function_name,
    request_id: row.request_id,
    trigger: row.trigger,
    status: row.status,
    duration_ms: row.duration_ms,
    output: row.output,
    output_dropped: row.output_dropped,
    created_date: row.logged_at,
  };
}

export interface FunctionCallLogsDeps {
  /** store keeps the calls (absent: they are not kept, and nothing is listed). */
  store?: FunctionLogsStore | undefined;
  flushMs: number;
  maxBatch: number;
  bufferMax: number;
  log: { warn(details: object, message: string): void; error(details: object, message: string): void };
  /** feed is told each batch once it is committed (the console's live Logs page). */
  feed?: Pick<LogFeed, 'publish'> | undefined;
}

/** liveCallsOf are a committed batch as the feed pushes them: with their ids, without their output. */
function liveCallsOf(rows: FunctionLogRow[], ids: string[]): LiveFunctionCall[] {
  return rows.flatMap((row, index) => {
    const id = ids[index];
    if (id === undefined) return [];
    return [
      {
        app_id: row.app_id,
        id,
        function: row.function_name,
        request_id: row.request_id,
        trigger: row.trigger,
        user_id: row.user_id,
        status: row.status,
        duration_ms: row.duration_ms,
        output_dropped: row.output_dropped,
        created_date: new Date(row.logged_at).toISOString(),
      },
    ];
  });
}

/** createFunctionCallLogs buffers, lists and prunes backend function calls. */
export function createFunctionCallLogs(deps: FunctionCallLogsDeps): FunctionCallLogs {
  const { store } = deps;
  const calls = createBatchWriter<FunctionLogRow>({
    async write(rows) {
      if (!store) return;
      const ids = await store.insertBatch(rows);
      // After the commit, so a viewer who opens a pushed call finds it stored.
      deps.feed?.publish('functions', liveCallsOf(rows, ids));
    },
    flushMs: deps.flushMs,
    maxBatch: deps.maxBatch,
    maxBuffered: deps.bufferMax,
    onDropped: (count) =>
      deps.log.warn({ dropped: count }, 'function log buffer full: calls dropped (APP_LOG_BUFFER_MAX)'),
    onWriteError: (error, lost) => deps.log.error({ err: error, lost }, 'function log batch write failed'),
  });
  return {
    record(appId, call) {
      if (!store) return false;
      return calls.add({
        app_id: appId,
        function_name: call.function,
        request_id: call.requestId,
        trigger: call.trigger,
        user_id: call.userId,
        status: call.status,
        duration_ms: Math.round(call.durationMs),
        output: call.output,
        output_dropped: call.outputDropped,
        logged_at: call.at,
      });
    },
    async fetch(appId, query) {
      await calls.flush();
      const rows = store
        ? await store.list(
            { appId, functionName: query.function, requestId: query.request_id, ...timeRangeOf(query) },
            query.limit + 1,
            query.skip,
          )
        : [];
      const items = rows
        .slice(0, query.limit)
        .map((row) => ({ ...functionCallView(row), type: 'function' as const }));
      return { items, has_more: rows.length > query.limit, limit: query.limit, skip: query.skip };
    },
    async prune(cutoff, batch) {
      let total = 0;
      for (;;) {
        const deleted = store ? await store.pruneBefore(cutoff, batch) : 0;
        total += deleted;
        if (deleted < batch) return total;
      }
    },
    flush: () => calls.flush(),
    close: () => calls.close(),
  };
}
