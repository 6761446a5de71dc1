// The console's Analytics charts (issue 24): per-UTC-day aggregates computed here in SQL, so the browser
// gets at most one row per day (and per event name or model), never the raw rows. Page views are read from
// their daily rollups (migration 30), which a trigger keeps as rows are inserted.
import type { Queryable } from './database';

/** ChartRange is one app's [from, to) window, both ISO date-times at UTC midnight. */
export interface ChartRange {
  appId: string;
  from: string;
  to: string;
}

/** DayViews is one UTC day's page views and distinct visitors (the visitor key rotates daily). */
export interface DayViews {
  day: string;
  views: number;
  visitors: number;
}

/** NamedCount is a count for a key: a page, a referrer host. */
export interface NamedCount {
  key: string;
  count: number;
}

/** DayNameCount is a count on a UTC day for a name: an event name, a model. */
export interface DayNameCount {
  day: string;
  name: string;
  count: number;
}

/** DayCount is a count on a UTC day. */
export interface DayCount {
  day: string;
  count: number;
}

const dayOf = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;

type Counted = Record<string, string | number>;
const num = (value: string | number | undefined) => Number(value ?? 0);

/** KeyedRollup is a per-day page-view rollup by a key (a closed list: names go into SQL). */
type KeyedRollup =
  { table: 'app_page_view_page_days'; key: 'page' } | { table: 'app_page_view_referrer_days'; key: 'host' };
const TOP_PAGES: KeyedRollup = { table: 'app_page_view_page_days', key: 'page' };
const TOP_REFERRERS: KeyedRollup = { table: 'app_page_view_referrer_days', key: 'host' };

/** createAnalyticsChartsStore returns the SQL of the Analytics page's aggregates. */
export function createAnalyticsChartsStore(db: Queryable) {
  const params = (range: ChartRange) => [range.appId, range.from, range.to];
  /** topOfRollup is a per-day rollup's keys by views over the range, most first, at most limit. */
  async function topOfRollup({ table, key }: KeyedRollup, range: ChartRange, limit: number) {
    const { rows } = await db.query<Counted>(
      `SELECT ${key} AS key, sum(views) AS count FROM ${table}
       WHERE app_id = $1 AND day >= ($2::timestamptz AT TIME ZONE 'UTC')::date AND day < ($3::timestamptz AT TIME ZONE 'UTC')::date
       GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT $4`,
      [...params(range), limit],
    );
    return rows.map((row): NamedCount => ({ key: String(row.key), count: num(row.count) }));
  }
  return {
    /** viewsByDay is page views and distinct visitors per UTC day, oldest first (from the daily rollup). */
    async viewsByDay(range: ChartRange): Promise<DayViews[]> {
      const { rows } = await db.query<Counted>(
        `SELECT to_char(day, 'YYYY-MM-DD') AS day, views, visitors FROM app_page_view_days
         WHERE app_id = $1 AND day >= ($2::timestamptz AT TIME ZONE 'UTC')::date AND day < ($3::timestamptz AT TIME ZONE 'UTC')::date ORDER BY day`,
        params(range),
      );
      return rows.map((row) => ({
        day: String(row.day),
        views: num(row.views),
        visitors: num(row.visitors),
      }));
    },
    /** topPages is the most viewed pages, at most limit. */
    topPages: (range: ChartRange, limit: number) => topOfRollup(TOP_PAGES, range, limit),
    /** topReferrers is the referring hosts (never paths) by page views, at most limit. */
    topReferrers: (range: ChartRange, limit: number) => topOfRollup(TOP_REFERRERS, range, limit),
    /** eventsByDay is the SDK's analytics events per name and UTC day received, at most limit rows. */
    async eventsByDay(range: ChartRange, limit: number): Promise<DayNameCount[]> {
      const { rows } = await db.query<Counted>(
        `SELECT ${dayOf('received_at')} AS day, event_name AS name, count(*) AS count FROM analytics_events
         WHERE app_id = $1 AND received_at >= $2 AND received_at < $3
         GROUP BY 1, 2 ORDER BY 1, 2 LIMIT $4`,
        [...params(range), limit],
      );
      return rows.map((row) => ({ day: String(row.day), name: String(row.name), count: num(row.count) }));
    },
    /** tokensByDay is the LLM tokens (prompt + completion) per model and UTC day, at most limit rows. */
    async tokensByDay(range: ChartRange, limit: number): Promise<DayNameCount[]> {
      const { rows } = await db.query<Counted>(
        `SELECT ${dayOf('created_at')} AS day, model AS name, sum(prompt_tokens + completion_tokens) AS count
         FROM llm_usage WHERE app_id = $1 AND created_at >= $2 AND created_at < $3
         GROUP BY 1, 2 ORDER BY 1, 2 LIMIT $4`,
        [...params(range), limit],
      );
      return rows.map((row) => ({ day: String(row.day), name: String(row.name), count: num(row.count) }));
    },
    /** mailsByDay is the mails sent (successfully) per UTC day. */
    async mailsByDay(range: ChartRange): Promise<DayCount[]> {
      const { rows } = await db.query<Counted>(
        `SELECT ${dayOf('sent_at')} AS day, count(*) AS count FROM mail_log
         WHERE app_id = $1 AND sent_at >= $2 AND sent_at < $3 AND ok GROUP BY 1 ORDER BY 1`,
        params(range),
      );
      return rows.map((row) => ({ day: String(row.day), count: num(row.count) }));
    },
  };
}

export type AnalyticsChartsStore = ReturnType<typeof createAnalyticsChartsStore>;
