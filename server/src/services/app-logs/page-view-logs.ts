// Page views as app logs (`logUserInApp`): recorded without a database round trip (a bounded buffer
// written in batches), the IP only as a daily visitor key, read back by admins as a list or as counts per
// page and day, and pruned by the app logs service (app-logs-service.ts), which composes them.
import { InvalidInputError, TooManyRequestsError } from '../../lib/errors';
import type { FetchLogsQuery, StatsQuery } from '../../schemas/app-logs';
import type { AppLogsStore, PageViewRow } from '../../store/app-logs-store';
import type { RateLimiter } from '../limits/rate-limiter';
import { createBatchWriter, type BatchWriterCounts } from './batch-writer';
import type { LivePageView, LogFeed } from './log-feed';
import { boundOf, timeRangeOf } from './log-range';
import { createVisitorKeys } from './visitor-key';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
/** REFERRER_MAX bounds the stored referrer (origin and path only). */
const REFERRER_MAX = 512;
/** USER_AGENT_MAX bounds the user agent hashed into the visitor key. */
const USER_AGENT_MAX = 512;
/** STATS_MAX_DAYS bounds the range one stats call may cover; STATS_DEFAULT_DAYS is its default. */
const STATS_MAX_DAYS = 366;
const STATS_DEFAULT_DAYS = 30;
/** STATS_MAX_PAGES bounds the pages a stats answer lists (most viewed first). */
const STATS_MAX_PAGES = 1000;

/** PageView is one page view as a route hands it over (the IP is hashed here, never kept). */
export interface PageView {
  page: string;
  userId: string | null;
  /** referrer is the Referer header; only its origin and path are stored (queries carry tokens). */
  referrer: string | undefined;
  ip: string;
  userAgent: string | undefined;
}

/** PageViewPage is one page of views, newest first, with has_more for the next skip. */
export interface PageViewPage {
  items: {
    id: string;
    page: string;
    user_id: string | null;
    referrer: string | null;
    visitor_key: string;
    created_date: string;
  }[];
  has_more: boolean;
  limit: number;
  skip: number;
}

/** PageViewStats are views and distinct visitors in all, per page and per UTC day. */
export interface PageViewStats {
  from: string;
  to: string;
  views: number;
  visitors: number;
  pages: { page: string; views: number; visitors: number }[];
  pages_truncated: boolean;
  days: { day: string; views: number; visitors: number }[];
}

/** PageViewLogs are the page views of every app this instance serves. */
export interface PageViewLogs {
  /** admit spends one page view of ip's per-minute budget, or throws TooManyRequestsError. */
  admit(ip: string): Promise<void>;
  /** record buffers one page view of appId; false when it was dropped (buffer full or closing). */
  record(appId: string, view: PageView): boolean;
  /** fetch returns page views newest first, filtered (this instance's buffered views written first). */
  fetch(appId: string, query: FetchLogsQuery): Promise<PageViewPage>;
  /** stats counts views and visitors over at most a year (STATS_MAX_DAYS). */
  stats(appId: string, query: StatsQuery): Promise<PageViewStats>;
  /** prune deletes views before cutoff, batch rows per statement, and says how many. */
  prune(cutoff: string, batch: number): Promise<number>;
  flush(): Promise<void>;
  /** counts are the buffer's running totals (written, dropped, failed, buffered). */
  counts(): BatchWriterCounts;
  /** close writes every buffered view; views recorded afterwards are dropped. */
  close(): Promise<void>;
}

export interface PageViewLogsDeps {
  store: AppLogsStore;
  limiter: RateLimiter;
  /** visitorSecret keys the visitor hash (the server's JWT secret: shared by every instance). */
  visitorSecret: string;
  ratePerMinute: number;
  flushMs: number;
  maxBatch: number;
  bufferMax: number;
  log: { warn(details: object, message: string): void; error(details: object, message: string): void };
  now: () => Date;
  /** feed is told each committed batch (the console's live Logs page). */
  feed?: Pick<LogFeed, 'publish'> | undefined;
}

/** livePageViewsOf are a committed batch as the feed pushes them: with their ids, without the visitor key. */
function livePageViewsOf(rows: PageViewRow[], ids: string[]): LivePageView[] {
  return rows.flatMap((row, index) => {
    const id = ids[index];
    if (id === undefined) return [];
    const { app_id, page, user_id, referrer, viewed_at } = row;
    return [{ app_id, id, page, user_id, referrer, created_date: viewed_at }];
  });
}

// The scheme, host and path of an absolute http(s) URL: everything before `?` or `#` (linear to match).
const REFERRER_PREFIX = /^https?:\/\/[^/?#\s]+[^?#\s]*/i;

/** storedReferrer keeps a Referer's origin and path: its query or fragment may hold a token. */
export function storedReferrer(header: string | undefined): string | null {
  const match = header ? REFERRER_PREFIX.exec(header.slice(0, 4 * REFERRER_MAX)) : null;
  return match ? match[0].slice(0, REFERRER_MAX) : null;
}

/** filterOf is a read's app, page and user; the range is settled by each read. */
function filterOf(appId: string, query: { page?: string | undefined; user_id?: string | undefined }) {
  return { appId, page: query.page, userId: query.user_id };
}

/** createPageViewLogs buffers, lists, counts and prunes page views; see the file comment. */
export function createPageViewLogs(deps: PageViewLogsDeps): PageViewLogs {
  const { store, now } = deps;
  const visitors = createVisitorKeys(deps.visitorSecret);
  const writer = createBatchWriter<PageViewRow>({
    async write(rows) {
      const ids = await store.insertBatch(rows);
      // After the commit, as the function calls are.
      deps.feed?.publish('page-views', livePageViewsOf(rows, ids));
    },
    flushMs: deps.flushMs,
    maxBatch: deps.maxBatch,
    maxBuffered: deps.bufferMax,
    onDropped: (count) =>
      deps.log.warn({ dropped: count }, 'page log buffer full: page views dropped (APP_LOG_BUFFER_MAX)'),
    onWriteError: (error, lost) => deps.log.error({ err: error, lost }, 'page log batch write failed'),
  });

  return {
    async admit(ip) {
      const decision = await deps.limiter.hit(`app-logs:ip:${ip}`, deps.ratePerMinute, MINUTE_MS);
      if (!decision.allowed) {
        throw new TooManyRequestsError(
          `Too many page views from this address: try again in ${decision.retryAfterSeconds} s`,
          decision.retryAfterSeconds,
        );
      }
    },
    record(appId, view) {
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
    async fetch(appId, query) {
      // This instance's buffered views are written first, so a reader sees its own views at once.
      await writer.flush();
      const rows = await store.list(
        { ...filterOf(appId, query), ...timeRangeOf(query) },
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
    async stats(appId, query) {
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
        store.totals(range),
        store.countByPage(range, STATS_MAX_PAGES + 1),
        store.countByDay(range, STATS_MAX_DAYS + 1),
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
    async prune(cutoff, batch) {
      let total = 0;
      for (;;) {
        const deleted = await store.pruneBefore(cutoff, batch);
        total += deleted;
        if (deleted < batch) {
          await store.pruneRollupsBefore(cutoff);
          return total;
        }
      }
    },
    flush: () => writer.flush(),
    counts: () => writer.counts(),
    close: () => writer.close(),
  };
}
