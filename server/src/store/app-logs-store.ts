import type { Queryable } from './database';
import { pruneExpired } from './prune-expired';

/** PageViewRow is one page view as stored (the visitor key is already hashed). */
export interface PageViewRow {
  app_id: string;
  page: string;
  user_id: string | null;
  referrer: string | null;
  visitor_key: string;
  /** viewed_at is an ISO 8601 date-time. */
  viewed_at: string;
}

/** StoredPageView is a page view read back, with its id. */
export interface StoredPageView extends Omit<PageViewRow, 'app_id'> {
  id: string;
}

/** PageViewFilter narrows a read to one app's page views in [from, to). */
export interface PageViewFilter {
  appId: string;
  from: string;
  to: string;
  page?: string | undefined;
  userId?: string | undefined;
}

/** PageViewCount is views and distinct visitor keys of one group (a page, or a UTC day). */
export interface PageViewCount {
  key: string;
  views: number;
  visitors: number;
}

// Times leave SQL as ISO strings so PGlite and pg answer alike.
const ISO_TIME = `to_char(viewed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const UTC_DAY = `to_char(viewed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;

function whereOf(filter: PageViewFilter): { sql: string; params: unknown[] } {
  const params: unknown[] = [filter.appId, filter.from, filter.to];
  let sql = 'app_id = $1 AND viewed_at >= $2 AND viewed_at < $3';
  if (filter.page !== undefined) {
    params.push(filter.page);
    sql += ` AND page = $${params.length}`;
  }
  if (filter.userId !== undefined) {
    params.push(filter.userId);
    sql += ` AND user_id = $${params.length}`;
  }
  return { sql, params };
}

/** createAppLogsStore returns the SQL for the app_page_views table. */
export function createAppLogsStore(db: Queryable) {
  async function countBy(
    group: string,
    filter: PageViewFilter,
    order: string,
    limit: number,
  ): Promise<PageViewCount[]> {
    const where = whereOf(filter);
    const { rows } = await db.query<{ key: string; views: string | number; visitors: string | number }>(
      `SELECT ${group} AS key, count(*) AS views, count(DISTINCT visitor_key) AS visitors
       FROM app_page_views WHERE ${where.sql}
       GROUP BY 1 ORDER BY ${order} LIMIT ${limit}`,
      where.params,
    );
    return rows.map((row) => ({ key: row.key, views: Number(row.views), visitors: Number(row.visitors) }));
  }

  return {
    /**
     * insertBatch stores page views (of any apps) in one statement, ~10× faster than one insert each, and
     * answers their ids in the rows' order (a function scan's rows are inserted and returned in order).
     */
    async insertBatch(views: PageViewRow[]): Promise<string[]> {
      const inserted = await db.query<{ id: string }>(
        `INSERT INTO app_page_views (app_id, page, user_id, referrer, visitor_key, viewed_at)
         SELECT v.app_id, v.page, v.user_id, v.referrer, v.visitor_key, v.viewed_at
         FROM jsonb_to_recordset($1::jsonb) AS v(
           app_id text, page text, user_id text, referrer text, visitor_key text, viewed_at timestamptz
         )
         RETURNING id::text AS id`,
        [JSON.stringify(views)],
      );
      return inserted.rows.map((row) => row.id);
    },
    /** list returns page views newest first, limit after skip. */
    async list(filter: PageViewFilter, limit: number, skip: number): Promise<StoredPageView[]> {
      const where = whereOf(filter);
      const n = where.params.length;
      const { rows } = await db.query<StoredPageView>(
        `SELECT id::text AS id, page, user_id, referrer, visitor_key, ${ISO_TIME} AS viewed_at
         FROM app_page_views WHERE ${where.sql}
         ORDER BY app_page_views.viewed_at DESC, id DESC LIMIT $${n + 1} OFFSET $${n + 2}`,
        [...where.params, limit, skip],
      );
      return rows;
    },
    /** totals returns all views and distinct visitor keys matching filter. */
    async totals(filter: PageViewFilter): Promise<{ views: number; visitors: number }> {
      const where = whereOf(filter);
      const { rows } = await db.query<{ views: string | number; visitors: string | number }>(
        `SELECT count(*) AS views, count(DISTINCT visitor_key) AS visitors
         FROM app_page_views WHERE ${where.sql}`,
        where.params,
      );
      return { views: Number(rows[0]?.views ?? 0), visitors: Number(rows[0]?.visitors ?? 0) };
    },
    /** countByPage returns views and visitors per page, most viewed first, at most limit pages. */
    countByPage: (filter: PageViewFilter, limit: number) => countBy('page', filter, 'views DESC, key', limit),
    /** countByDay returns views and visitors per UTC day (YYYY-MM-DD), oldest first, at most limit days. */
    countByDay: (filter: PageViewFilter, limit: number) => countBy(UTC_DAY, filter, 'key', limit),
    /**
     * pruneBefore deletes at most batch page views older than cutoff (any app) and says how many; callers
     * loop, so no single statement outlives the query timeout on a large table. Each app's oldest views
     * are found through the (app_id, viewed_at) index and deleted by primary key (`= ANY (ARRAY(…))`: an
     * `IN (subquery)` is planned as a scan of the whole table).
     */
    async pruneBefore(cutoff: string, batch: number): Promise<number> {
      return pruneExpired(db, { table: 'app_page_views', timeColumn: 'viewed_at' }, cutoff, batch);
    },
    /** pruneRollupsBefore deletes the daily rollups (migration 30) of the UTC days wholly before cutoff. */
    async pruneRollupsBefore(cutoff: string): Promise<void> {
      for (const table of [
        'app_page_view_days',
        'app_page_visitor_days',
        'app_page_view_page_days',
        'app_page_view_referrer_days',
      ]) {
        await db.query(`DELETE FROM ${table} WHERE day < ($1::timestamptz AT TIME ZONE 'UTC')::date`, [
          cutoff,
        ]);
      }
    },
  };
}

export type AppLogsStore = ReturnType<typeof createAppLogsStore>;
