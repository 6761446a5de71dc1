// The app logs (`appLogs`): page views (page-view-logs.ts) and backend function calls
// (function-call-logs.ts), each buffered and written in batches off the request path, read back by
// admins, and deleted here together once older than the retention period.
import type { FetchLogsQuery, StatsQuery } from '../../schemas/app-logs';
import type { AuditLog } from '../audit/audit-log';
import type { AppLogsStore } from '../../store/app-logs-store';
import type { FunctionLogsStore } from '../../store/function-logs-store';
import type { MailLogStore } from '../../store/mail-log-store';
import type { FunctionCallRecord } from '../functions/functions-service';
import type { RateLimiter } from '../limits/rate-limiter';
import type { BatchWriterCounts } from './batch-writer';
import { createFunctionCallLogs, type FunctionCallPage } from './function-call-logs';
import type { LogFeed } from './log-feed';
import { createPageViewLogs, type PageView, type PageViewPage, type PageViewStats } from './page-view-logs';

export { functionCallView } from './function-call-logs';
export type { PageView } from './page-view-logs';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
/** MAX_BATCH is the most rows (page views or calls) one insert takes. */
const MAX_BATCH = 1000;
/** PRUNE_EVERY_MS and PRUNE_FIRST_MS: when expired logs are deleted; PRUNE_BATCH rows per statement. */
const PRUNE_EVERY_MS = 60 * MINUTE_MS;
const PRUNE_FIRST_MS = 30_000;
const PRUNE_BATCH = 5000;

/** AppLogsLog is where the service reports drops and failures. */
export interface AppLogsLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface AppLogsDeps {
  store: AppLogsStore;
  /** functionStore keeps backend function calls (absent: they are not kept). */
  functionStore?: FunctionLogsStore;
  /** audit is the audit log, pruned with the other logs (absent: not pruned here). */
  audit?: Pick<AuditLog, 'prune'>;
  /** mailLog is the record of mails sent, pruned with the other logs (absent: not pruned here). */
  mailLog?: Pick<MailLogStore, 'prune'>;
  limiter: RateLimiter;
  /** visitorSecret keys the visitor hash (the server's JWT secret: shared by every instance). */
  visitorSecret: string;
  retentionDays: number;
  ratePerMinute: number;
  flushMs: number;
  bufferMax: number;
  log: AppLogsLog;
  now?: () => Date;
  /** feed is told each committed batch of function calls and page views (the console's live Logs page). */
  feed?: Pick<LogFeed, 'publish'>;
  /** pruneFirstMs is when the first prune runs after startPruning (default 30 s; tests shorten it). */
  pruneFirstMs?: number;
}

/** AppLogsService is the app logs of every app this instance serves (routes, functions, the platform). */
export interface AppLogsService {
  /** admit spends one page view of ip's per-minute budget, or throws TooManyRequestsError. */
  admit(ip: string): Promise<void>;
  /** record buffers one page view of appId; false when it was dropped (buffer full or closing). */
  record(appId: string, view: PageView): boolean;
  /** recordFunctionCall buffers one backend function call of appId; false when it was dropped. */
  recordFunctionCall(appId: string, call: FunctionCallRecord): boolean;
  /** fetchFunctionLogs returns backend function calls newest first (fetchLogs with `type=function`). */
  fetchFunctionLogs(appId: string, query: FetchLogsQuery): Promise<FunctionCallPage>;
  /** fetchLogs returns page views newest first, filtered, with has_more for the next skip. */
  fetchLogs(appId: string, query: FetchLogsQuery): Promise<PageViewPage>;
  /** stats returns views and distinct visitors in all, per page and per UTC day, over at most a year. */
  stats(appId: string, query: StatsQuery): Promise<PageViewStats>;
  /** pruneExpired deletes page views, calls, audit rows and mail records older than the retention period; says how many. */
  pruneExpired(): Promise<number>;
  /** flush writes this instance's buffered views and calls now. */
  flush(): Promise<void>;
  /** startPruning prunes soon after start and then hourly, off the request path, until close. */
  startPruning(): void;
  /** counts are the page view buffer's running totals (written, dropped, failed, buffered). */
  counts(): BatchWriterCounts;
  /** close stops pruning and writes every buffered view and call (call before the database closes). */
  close(): Promise<void>;
}

/** createAppLogsService composes page views and function calls, and prunes both; see the file comment. */
export function createAppLogsService(deps: AppLogsDeps): AppLogsService {
  const now = deps.now ?? (() => new Date());
  const batches = { flushMs: deps.flushMs, maxBatch: MAX_BATCH, bufferMax: deps.bufferMax, log: deps.log };
  const views = createPageViewLogs({
    ...batches,
    store: deps.store,
    limiter: deps.limiter,
    visitorSecret: deps.visitorSecret,
    ratePerMinute: deps.ratePerMinute,
    now,
    feed: deps.feed,
  });
  const calls = createFunctionCallLogs({ ...batches, store: deps.functionStore, feed: deps.feed });
  let pruneTimers: NodeJS.Timeout[] = [];
  let pruning: Promise<number> | null = null;

  async function pruneExpired(): Promise<number> {
    const cutoff = new Date(now().getTime() - deps.retentionDays * DAY_MS).toISOString();
    const pruned = (await views.prune(cutoff, PRUNE_BATCH)) + (await calls.prune(cutoff, PRUNE_BATCH));
    const audited = (await deps.audit?.prune(cutoff, PRUNE_BATCH)) ?? 0;
    return pruned + audited + ((await deps.mailLog?.prune(cutoff, PRUNE_BATCH)) ?? 0);
  }

  return {
    admit: views.admit,
    record: views.record,
    recordFunctionCall: calls.record,
    fetchFunctionLogs: calls.fetch,
    fetchLogs: views.fetch,
    stats: views.stats,
    pruneExpired,
    flush: () => Promise.all([views.flush(), calls.flush()]).then(() => undefined),
    startPruning(): void {
      const run = () => {
        if (pruning) return;
        pruning = pruneExpired();
        pruning
          .catch((error: unknown) => {
            deps.log.error({ err: error }, 'page log prune failed');
            return 0;
          })
          .finally(() => {
            pruning = null;
          });
      };
      pruneTimers = [setTimeout(run, deps.pruneFirstMs ?? PRUNE_FIRST_MS), setInterval(run, PRUNE_EVERY_MS)];
      for (const timer of pruneTimers) timer.unref();
    },
    counts: views.counts,
    async close(): Promise<void> {
      for (const timer of pruneTimers) clearTimeout(timer);
      pruneTimers = [];
      await pruning?.catch(() => 0);
      await views.close();
      await calls.close();
    },
  };
}
