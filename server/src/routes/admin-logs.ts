// The console's Logs page under `/api/apps/:appId/admin/logs/`: function calls (and one call's redacted
// output), page views and the audit log, keyset-paged; and `live?tab=`, a server-sent-events stream of one
// log's rows as they are committed (log-feed.ts says why a stream). Admins or SERVICE_TOKEN only.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { TooManyRequestsError } from '../lib/errors';
import { parseInput } from '../lib/validation';
import { AppParamsSchema } from '../schemas/apps';
import {
  ConsoleAuditQuerySchema,
  ConsoleFunctionCallParamsSchema,
  ConsoleFunctionLogsQuerySchema,
  ConsoleLiveQuerySchema,
  ConsolePageViewsQuerySchema,
} from '../schemas/console-logs';
import type { ConsoleLogs } from '../services/admin/console-logs';
import type { LogFeed } from '../services/app-logs/log-feed';
import type { CallerGuard } from './caller-guard';
import { createEventStreams, sendEvent } from './event-streams';

/** AdminLogsRoutesDeps are the caller guard, the Logs page's reads and the live feed. */
export interface AdminLogsRoutesDeps {
  guard: Pick<CallerGuard, 'operator'>;
  logs: ConsoleLogs;
  feed: Pick<LogFeed, 'subscribe'>;
}

/** registerAdminLogsRoutes adds the console's log reads and the live stream. */
export function registerAdminLogsRoutes(app: FastifyInstance, deps: AdminLogsRoutesDeps): void {
  const operatorApp = async (request: FastifyRequest) => {
    const { appId } = parseInput(AppParamsSchema, request.params);
    await deps.guard.operator(request, appId);
    return appId;
  };
  const base = '/api/apps/:appId/admin/logs';

  app.get(`${base}/functions`, async (request) => {
    const appId = await operatorApp(request);
    return deps.logs.functionCalls(appId, parseInput(ConsoleFunctionLogsQuerySchema, request.query));
  });

  app.get(`${base}/functions/:id`, async (request) => {
    // The caller first: a stranger learns nothing from which ids are well formed.
    const appId = await operatorApp(request);
    const { id } = parseInput(ConsoleFunctionCallParamsSchema, request.params);
    return deps.logs.functionOutput(appId, id);
  });

  app.get(`${base}/page-views`, async (request) => {
    const appId = await operatorApp(request);
    return deps.logs.pageViews(appId, parseInput(ConsolePageViewsQuerySchema, request.query));
  });

  app.get(`${base}/audit`, async (request) => {
    const appId = await operatorApp(request);
    return deps.logs.audit(appId, parseInput(ConsoleAuditQuerySchema, request.query));
  });

  const streams = createEventStreams(app);
  app.get(`${base}/live`, async (request, reply) => {
    const { appId } = parseInput(AppParamsSchema, request.params);
    const holder = streams.admit(await deps.guard.operator(request, appId));
    const { tab } = parseInput(ConsoleLiveQuerySchema, request.query);
    const unsubscribe = deps.feed.subscribe(appId, tab, (rows) => {
      const items = rows.map(({ app_id: _app, ...row }) => row);
      sendEvent(reply.raw, tab, JSON.stringify(items));
    });
    if (!unsubscribe) throw new TooManyRequestsError('Too many live log streams: try again later', 30);
    streams.start(reply, holder, unsubscribe);
  });
}
