// The console's Logs page under `/api/apps/:appId/admin/logs/`: function calls (and one call's redacted
// output), page views and the audit log, keyset-paged; and `live`, a server-sent-events stream of the
// function calls each batch commits (function-log-feed.ts says why a stream). Admins or SERVICE_TOKEN only.
import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { TooManyRequestsError } from '../lib/errors';
import { parseInput } from '../lib/validation';
import { AppParamsSchema } from '../schemas/apps';
import {
  ConsoleAuditQuerySchema,
  ConsoleFunctionCallParamsSchema,
  ConsoleFunctionLogsQuerySchema,
  ConsolePageViewsQuerySchema,
} from '../schemas/console-logs';
import type { ConsoleLogs } from '../services/admin/console-logs';
import type { FunctionLogFeed } from '../services/app-logs/function-log-feed';
import type { CallerGuard } from './caller-guard';

/** AdminLogsRoutesDeps are the caller guard, the Logs page's reads and the live feed. */
export interface AdminLogsRoutesDeps {
  guard: Pick<CallerGuard, 'operator'>;
  logs: ConsoleLogs;
  feed: Pick<FunctionLogFeed, 'subscribe'>;
}

/** HEARTBEAT_MS keeps an idle stream open through proxies that drop silent connections. */
const HEARTBEAT_MS = 25_000;
/** STREAM_BACKLOG_MAX ends a stream whose viewer reads slower than calls arrive (bytes not yet sent). */
const STREAM_BACKLOG_MAX = 1 << 20;

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
    const { appId, id } = parseInput(ConsoleFunctionCallParamsSchema, request.params);
    await deps.guard.operator(request, appId);
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

  // Open streams are ended before the server closes, which would otherwise wait for them.
  const open = new Set<ServerResponse>();
  app.addHook('preClose', (done) => {
    for (const stream of open) stream.end();
    done();
  });

  app.get(`${base}/live`, async (request, reply) => {
    const appId = await operatorApp(request);
    const raw = reply.raw;
    const unsubscribe = deps.feed.subscribe(appId, (calls) => {
      if (raw.writableLength > STREAM_BACKLOG_MAX) return void raw.destroy();
      const items = calls.map(({ app_id: _app, ...call }) => call);
      raw.write(`event: calls\ndata: ${JSON.stringify(items)}\n\n`);
    });
    if (!unsubscribe) throw new TooManyRequestsError('Too many live log streams: try again later', 30);
    reply.hijack();
    open.add(raw);
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
    });
    raw.write(': live\n\n');
    const heartbeat = setInterval(() => raw.write(': ping\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    raw.on('close', () => {
      clearInterval(heartbeat);
      unsubscribe();
      open.delete(raw);
    });
  });
}
