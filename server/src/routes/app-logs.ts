import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ForbiddenError, UnauthorizedError } from '../lib/errors';
import { parseInput } from '../lib/validation';
import {
  FetchLogsQuerySchema,
  LOG_PAGE_BODY_LIMIT,
  LogPageParamsSchema,
  StatsQuerySchema,
} from '../schemas/app-logs';
import { AppParamsSchema } from '../schemas/apps';
import type { AppLogsService } from '../services/app-logs/app-logs-service';
import type { CallerGuard } from './caller-guard';

/**
 * registerAppLogsRoutes adds the page logs of the SDK's `appLogs` (docs/protocol-notes.md, "Page logs"):
 * `POST /api/app-logs/:appId/log-user-in-app/:page`, the same without `/api` (`@base44/vite-plugin`
 * 1.0.10), and the admins' reads `GET /api/app-logs/:appId` and `…/stats`.
 */
export function registerAppLogsRoutes(
  app: FastifyInstance,
  deps: { guard: CallerGuard; appLogs: AppLogsService },
): void {
  async function logPage(request: FastifyRequest, reply: FastifyReply) {
    const params = request.params as Record<string, unknown>;
    const { appId, page } = parseInput(LogPageParamsSchema, { appId: params.appId, page: params['*'] });
    await deps.appLogs.admit(request.ip);
    let userId: string | null = null;
    try {
      // A stale token on an open app is not worth failing a page view for: it counts as anonymous.
      const caller = await deps.guard.dataCaller(request, appId, { badTokenAsAnonymous: true });
      if (caller.kind === 'user') userId = caller.user.id;
    } catch (error) {
      // A private app's views are stored too, without a user: the page-view beacon of
      // `@base44/vite-plugin` never carries a token, so refusing it would leave such an app with no page
      // logs at all. Rate limits (admit) and retention bound what a stranger can add.
      if (!(error instanceof UnauthorizedError || error instanceof ForbiddenError)) throw error;
    }
    deps.appLogs.record(appId, {
      page,
      userId,
      referrer: request.headers.referer,
      ip: request.ip,
      userAgent: request.headers['user-agent'],
    });
    return reply.code(204).send();
  }
  const bounded = { bodyLimit: LOG_PAGE_BODY_LIMIT };
  app.post('/api/app-logs/:appId/log-user-in-app/*', bounded, logPage);
  app.post('/app-logs/:appId/log-user-in-app/*', bounded, logPage);

  app.get('/api/app-logs/:appId', async (request) => {
    const { appId } = parseInput(AppParamsSchema, request.params);
    await deps.guard.admin(request, appId);
    const query = parseInput(FetchLogsQuerySchema, request.query);
    // `type=function` (or naming a function) reads backend function calls; anything else page views.
    if (query.type === 'function' || query.function !== undefined)
      return deps.appLogs.fetchFunctionLogs(appId, query);
    return deps.appLogs.fetchLogs(appId, query);
  });

  app.get('/api/app-logs/:appId/stats', async (request) => {
    const { appId } = parseInput(AppParamsSchema, request.params);
    await deps.guard.admin(request, appId);
    return deps.appLogs.stats(appId, parseInput(StatsQuerySchema, request.query));
  });
}
