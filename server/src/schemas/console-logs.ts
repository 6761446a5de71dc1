import { z } from 'zod';

// The console Logs page's queries: a time range, filters and a keyset cursor, each bounded.

const time = z.union([z.iso.datetime({ offset: true }), z.iso.date()], {
  error: 'must be an ISO 8601 date (YYYY-MM-DD) or date-time',
});
const text = (max: number) => z.string().min(1).max(max, `must be at most ${max} characters`).optional();

/** LOG_CURSOR is a page's end as the server hands it out: `<ISO date-time to the microsecond>~<id>`. */
const LOG_CURSOR = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z~\d{1,19}$/;

const RangeShape = {
  from: time.optional(),
  to: time.optional(),
  before: z
    .string()
    .max(60, 'must be at most 60 characters')
    .regex(LOG_CURSOR, 'must be a cursor the server answered (next)')
    .optional(),
  limit: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(200, 'must be at most 200')
    .default(50),
};

/** ConsoleFunctionLogsQuerySchema is `GET /api/apps/:appId/admin/logs/functions`. */
export const ConsoleFunctionLogsQuerySchema = z.object({
  ...RangeShape,
  function: text(200),
  request_id: text(200),
  status: z.enum(['ok', 'error'], { error: 'must be ok or error' }).optional(),
  /** user is the signed-in caller's user id. */
  user: text(256),
});

/** ConsolePageViewsQuerySchema is `GET /api/apps/:appId/admin/logs/page-views`. */
export const ConsolePageViewsQuerySchema = z.object({ ...RangeShape, page: text(200), user: text(256) });

/** ConsoleAuditQuerySchema is `GET /api/apps/:appId/admin/logs/audit` (user: the actor's id or email). */
export const ConsoleAuditQuerySchema = z.object({ ...RangeShape, user: text(256) });

/** ConsoleFunctionCallParamsSchema is `GET /api/apps/:appId/admin/logs/functions/:id`. */
export const ConsoleFunctionCallParamsSchema = z.object({
  appId: z.string().min(1),
  id: z.string().regex(/^\d{1,18}$/, 'must be a call id'),
});

export type ConsoleFunctionLogsQuery = z.infer<typeof ConsoleFunctionLogsQuerySchema>;
export type ConsolePageViewsQuery = z.infer<typeof ConsolePageViewsQuerySchema>;
export type ConsoleAuditQuery = z.infer<typeof ConsoleAuditQuerySchema>;

/** LIVE_LOG_KINDS are the logs the console follows live: its Logs page's tabs. */
export const LIVE_LOG_KINDS = ['functions', 'page-views', 'audit'] as const;
export type LiveLogKind = (typeof LIVE_LOG_KINDS)[number];

/** ConsoleLiveQuerySchema is `GET /api/apps/:appId/admin/logs/live`: which log to follow (a tab). */
export const ConsoleLiveQuerySchema = z.object({ tab: z.enum(LIVE_LOG_KINDS).default('functions') });
