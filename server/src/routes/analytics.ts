import type { FastifyInstance } from 'fastify';
import { parseInput } from '../lib/validation';
import { TrackBatchSchema } from '../schemas/analytics';
import { AppParamsSchema } from '../schemas/apps';
import type { AnalyticsService } from '../services/analytics/analytics-service';

/** registerAnalyticsRoutes adds the SDK's analytics batch endpoint (also hit by `navigator.sendBeacon`). */
export function registerAnalyticsRoutes(app: FastifyInstance, analytics: AnalyticsService): void {
  app.post('/api/apps/:appId/analytics/track/batch', async (request, reply) => {
    const { appId } = parseInput(AppParamsSchema, request.params);
    const { events } = parseInput(TrackBatchSchema, request.body);
    await analytics.trackBatch(appId, events);
    return reply.code(204).send();
  });
}
