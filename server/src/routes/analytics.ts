import type { FastifyInstance } from 'fastify';
import { parseInput } from '../lib/validation';
import { TrackBatchSchema } from '../schemas/analytics';
import { AppParamsSchema } from '../schemas/apps';
import type { AnalyticsService } from '../services/analytics/analytics-service';
import type { CallerGuard } from './caller-guard';

/** registerAnalyticsRoutes adds the SDK's analytics batch endpoint (also hit by `navigator.sendBeacon`). */
export function registerAnalyticsRoutes(
  app: FastifyInstance,
  deps: { guard: CallerGuard; analytics: AnalyticsService },
): void {
  app.post('/api/apps/:appId/analytics/track/batch', async (request, reply) => {
    const { appId } = parseInput(AppParamsSchema, request.params);
    // A private app takes analytics only from its approved users (beacons carry no token: refused there);
    // a stale token on an open app is not worth failing a fire-and-forget batch for.
    await deps.guard.dataCaller(request, appId, { badTokenAsAnonymous: true });
    const { events } = parseInput(TrackBatchSchema, request.body);
    await deps.analytics.trackBatch(appId, events);
    return reply.code(204).send();
  });
}
