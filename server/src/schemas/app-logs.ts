import { z } from 'zod';

/** PAGE_NAME_MAX is the longest page name a page view may carry. */
export const PAGE_NAME_MAX = 200;

/** LOG_PAGE_BODY_LIMIT is the largest body a page view may carry (the SDK and the vite plugin send none). */
export const LOG_PAGE_BODY_LIMIT = 1024;

/**
 * LogPageParamsSchema is `POST [/api]/app-logs/:appId/log-user-in-app/*` with the wildcard as `page`
 * (the SDK inserts the page name unencoded, so it may hold `/`).
 */
export const LogPageParamsSchema = z.object({
  appId: z.string().min(1),
  page: z
    .string()
    .min(1, 'must not be empty')
    .max(PAGE_NAME_MAX, `must be at most ${PAGE_NAME_MAX} characters`),
});

const time = z.union([z.iso.datetime({ offset: true }), z.iso.date()], {
  error: 'must be an ISO 8601 date (YYYY-MM-DD) or date-time',
});

/** PageViewRangeShape is the time range and filters both reads accept. */
const PageViewFilterShape = {
  page: z.string().min(1).max(PAGE_NAME_MAX, `must be at most ${PAGE_NAME_MAX} characters`).optional(),
  from: time.optional(),
  to: time.optional(),
};

/**
 * FetchLogsQuerySchema is `GET /api/app-logs/:appId` (the SDK's `fetchLogs(params)`): filters, newest
 * first, limit/skip paging. Unknown parameters are ignored, as the SDK lets apps send any. `type=function`
 * (implied by `function`) reads backend function calls instead of page views; `request_id` narrows them.
 */
export const FetchLogsQuerySchema = z.object({
  ...PageViewFilterShape,
  type: z.enum(['page', 'function'], { error: 'must be page or function' }).optional(),
  function: z.string().min(1).max(200, 'must be at most 200 characters').optional(),
  request_id: z.string().min(1).max(200, 'must be at most 200 characters').optional(),
  user_id: z.string().min(1).max(256, 'must be at most 256 characters').optional(),
  limit: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(1000, 'must be at most 1000')
    .default(100),
  skip: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must be at least 0')
    .max(100_000, 'must be at most 100000')
    .default(0),
});

/** StatsQuerySchema is `GET /api/app-logs/:appId/stats` (the SDK's `getStats(params)`). */
export const StatsQuerySchema = z.object(PageViewFilterShape);

export type FetchLogsQuery = z.infer<typeof FetchLogsQuerySchema>;
export type StatsQuery = z.infer<typeof StatsQuerySchema>;
