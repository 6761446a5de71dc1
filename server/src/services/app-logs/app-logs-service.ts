import { InvalidInputError, TooManyRequestsError } from '../../lib/errors';
import type { FetchLogsQuery, StatsQuery } from '../../schemas/app-logs';
import type { AppLogsStore, PageViewRow } from '../../store/app-logs-store';
import type { FunctionLogsStore } from '../../store/function-logs-store';
import type { RateLimiter } from '../limits/rate-limiter';
import { createBatchWriter, type BatchWriterCounts } from './batch-writer';
import { createFunctionCallLogs } from './function-call-logs';

export { functionCallView } from './function-call-logs';
import { createVisitorKeys } from './visitor-key';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
/** MAX_BATCH is the most page views one insert takes. */
const MAX_BATCH = 1000;
/** REFERRER_MAX bounds the stored referrer (origin and path only). */
const REFERRER_MAX = 512;
/** USER_AGENT_MAX bounds the user agent hashed into the visitor key. */
const USER_AGENT_MAX = 512;
/** STATS_MAX_DAYS bounds the range one stats call may cover; STATS_DEFAULT_DAYS is its default. */
const STATS_MAX_DAYS = 366;
const STATS_DEFAULT_DAYS = 30;
/** STATS_MAX_PAGES bounds the pages a stats answer lists (most viewed first). */
const STATS_MAX_PAGES = 1000;
/** PRUNE_EVERY_MS and PRUNE_FIRST_MS: when expired page views are deleted; PRUNE_BATCH rows per statement. */
const PRUNE_EVERY_MS = 60 * MINUTE_MS;
const PRUNE_FIRST_MS = 30_000;
const PRUNE_BATCH = 5000;

/** PageView is one page view as a route hands it over (the IP is hashed here, never kept). */
export interface PageView {
  page: string;
  userId: string | null;
  /** referrer is the Referer header; only its origin and path are stored (queries carry tokens). */
  referrer: string | undefined;
  ip: string;
  userAgent: string | undefined;
}

/** AppLogsLog is where the service reports drops and failures. */
export interface AppLogsLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface AppLogsDeps {
  store: AppLogsStore;
  /** functionStore keeps backend function calls (absent: they are not kept). */
  functionStore?: FunctionLogsStore;
  limiter: RateLimiter;
  /** visitorSecret keys the visitor hash (the server's JWT secret: shared by every instance). */
  visitorSecret: string;
  retentionDays: number;
  ratePerMinute: number;
  flushMs: number;
  bufferMax: number;
  log: AppLogsLog;
  now?: () => Date;
  /** pruneFirstMs is when the first prune runs after startPruning (default 30 s; tests shorten it). */
  pruneFirstMs?: number;
}

// The scheme, host and path of an absolute http(s) URL: everything before `?` or `#` (linear to match).
const REFERRER_PREFIX = /^https?:\/\/[^/?#\s]+[^?#\s]*/i;

/** storedReferrer keeps a Referer's origin and path: its query or fragment may hold a token. */
export function storedReferrer(header: string | undefined): string | null {
  const match = header ? REFERRER_PREFIX.exec(header.slice(0, 4 * REFERRER_MAX)) : null;
  return match ? match[0].slice(0, REFERRER_MAX) : null;
}

/** boundOf reads a range bound; a date-only `to` means the end of that day. */
function boundOf(value: string, end: boolean): Date {
  const time = new Date(value);
  return end && value.length === 10 ? new Date(time.getTime() + DAY_MS) : time;
}

/**
 * createAppLogsService returns the page logs of `appLogs`: views are recorded without a database round
 * trip (a bounded buffer written in batches), read back by admins, and deleted after the retention period.
 */
/** timeRangeOf is a fetchLogs query's from/to as the store's bounds (open ends when absent). */
function timeRangeOf(query: Pick<FetchLogsQuery, 'from' | 'to'>): { from: string; to: string } {
  return {
    from: query.from ? boundOf(query.from, false).toISOString() : '-infinity',
    to: query.to ? boundOf(query.to, true).toISOString() : 'infinity',
  };
}

export function createAppLogsService(deps: AppLogsDeps) {
  const now = deps.now ?? (() => new Date());
  const visitors = createVisitorKeys(deps.visitorSecret);
  const writer = createBatchWriter<PageViewRow>({
    write: (rows) => deps.store.insertBatch(rows),
    flushMs: deps.flushMs,
    maxBatch: MAX_BATCH,
    maxBuffered: deps.bufferMax,
    onDropped: (count) =>
      deps.log.warn({ dropped: count }, 'page log buffer full: page views dropped (APP_LOG_BUFFER_MAX)'),
    onWriteError: (error, lost) => deps.log.error({ err: error, lost }, 'page log batch write failed'),
  });
  const calls = createFunctionCallLogs({
    store: deps.functionStore,
    flushMs: deps.flushMs,
    maxBatch: MAX_BATCH,
    bufferMax: deps.bufferMax,
    log: deps.log,
    timeRangeOf,
  });
  let pruneTimers: NodeJS.Timeout[] = [];
  let pruning: Promise<number> | null = null;

  async function pruneExpired(): Promise<number> {
    const cutoff = new Date(now().getTime() - deps.retentionDays * DAY_MS).toISOString();
    let total = 0;
    for (;;) {
      const deleted = await deps.store.pruneBefore(cutoff, PRUNE_BATCH);
      total += deleted;
      if (deleted < PRUNE_BATCH) break;
    }
    return total + (await calls.prune(cutoff, PRUNE_BATCH));
  }

  /** filterOf is a read's app, page and user; the range is settled by each read. */
  function filterOf(appId: string, query: { page?: string | undefined; user_id?: string | undefined }) {
    return { appId, page: query.page, userId: query.user_id };
  }

  return {
    /** admit spends one page view of ip's per-minute budget, or throws TooManyRequestsError. */
    async admit(ip: string): Promise<void> {
      const decision = await deps.limiter.hit(`app-logs:ip:${ip}`, deps.ratePerMinute, MINUTE_MS);
      if (!decision.allowed) {
        throw new TooManyRequestsError(
          `Too many page views from this address: try again in ${decision.retryAfterSeconds} s`,
          decision.retryAfterSeconds,
        );
      }
    },
    /** record buffers one page view of appId; false when it was dropped (buffer full or closing). */
    record(appId: string, view: PageView): boolean {
      const time = now().toISOString();
      const userAgent = (view.userAgent ?? '').slice(0, USER_AGENT_MAX);
      return writer.add({
        app_id: appId,
        page: view.page,
        user_id: view.userId,
        referrer: storedReferrer(view.referrer),
        visitor_key: visitors.keyFor(appId, view.ip, userAgent, time.slice(0, 10)),
        viewed_at: time,
      });
    },
    /** recordFunctionCall buffers one backend function call of appId; false when it was dropped. */
    recordFunctionCall: calls.record,
    /** fetchFunctionLogs returns backend function calls newest first (fetchLogs with `type=function`). */
    fetchFunctionLogs: calls.fetch,
    /** fetchLogs returns page views newest first, filtered, with has_more for the next skip. */
    async fetchLogs(appId: string, query: FetchLogsQuery) {
      // This instance's buffered views are written first, so a reader sees its own views at once.
      await writer.flush();
      const rows = await deps.store.list(
        {
          ...filterOf(appId, query),
          ...timeRangeOf(query),
        },
        query.limit + 1,
        query.skip,
      );
      const items = rows.slice(0, query.limit).map((row) => ({
        id: row.id,
        page: row.page,
        user_id: row.user_id,
        referrer: row.referrer,
        visitor_key: row.visitor_key,
        created_date: row.viewed_at,
      }));
      return { items, has_more: rows.length > query.limit, limit: query.limit, skip: query.skip };
    },
    /** stats returns views and distinct visitors in all, per page and per UTC day, over at most a year. */
    async stats(appId: string, query: StatsQuery) {
      await writer.flush();
      const end = query.to ? boundOf(query.to, true) : now();
      const start = query.from
        ? boundOf(query.from, false)
        : new Date(end.getTime() - STATS_DEFAULT_DAYS * DAY_MS);
      if (end.getTime() - start.getTime() > STATS_MAX_DAYS * DAY_MS) {
        throw new InvalidInputError(`from..to may cover at most ${STATS_MAX_DAYS} days`);
      }
      // A default end of "now" includes the views flushed just above.
      const range = {
        ...filterOf(appId, query),
        from: start.toISOString(),
        to: new Date(end.getTime() + 1).toISOString(),
      };
      const [totals, pages, days] = await Promise.all([
        deps.store.totals(range),
        deps.store.countByPage(range, STATS_MAX_PAGES + 1),
        deps.store.countByDay(range, STATS_MAX_DAYS + 1),
      ]);
      return {
        from: start.toISOString(),
        to: end.toISOString(),
        views: totals.views,
        visitors: totals.visitors,
        pages: pages.slice(0, STATS_MAX_PAGES).map(({ key, ...count }) => ({ page: key, ...count })),
        pages_truncated: pages.length > STATS_MAX_PAGES,
        days: days.map(({ key, ...count }) => ({ day: key, ...count })),
      };
    },
    /** pruneExpired deletes page views older than the retention period and says how many. */
    pruneExpired,
    /** flush writes this instance's buffered views and calls now. */
    flush: () => Promise.all([writer.flush(), calls.flush()]).then(() => undefined),
    /** startPruning prunes soon after start and then hourly, off the request path, until close. */
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
    /** counts are the buffer's running totals (written, dropped, failed, buffered). */
    counts: (): BatchWriterCounts => writer.counts(),
    /** close stops pruning and writes every buffered view (call before the database closes). */
    async close(): Promise<void> {
      for (const timer of pruneTimers) clearTimeout(timer);
      pruneTimers = [];
      await pruning?.catch(() => 0);
      await writer.close();
      await calls.close();
    },
  };
}

export type AppLogsService = ReturnType<typeof createAppLogsService>;
