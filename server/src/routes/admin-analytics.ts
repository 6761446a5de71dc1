// The console's Analytics page: `GET /api/apps/:appId/admin/analytics?days=7|30|90`, per-day aggregates
// computed in SQL. Admins or SERVICE_TOKEN only.
import type { FastifyInstance } from 'fastify';
import { parseInput } from '../lib/validation';
import { AnalyticsQuerySchema } from '../schemas/admin-analytics';
import { AppParamsSchema } from '../schemas/apps';
import type { AnalyticsChartsReader, AnalyticsRange } from '../services/admin/analytics-charts';
import type { CallerGuard } from './caller-guard';

/** registerAdminAnalyticsRoutes adds the Analytics page's read. */
export function registerAdminAnalyticsRoutes(
  app: FastifyInstance,
  deps: { guard: Pick<CallerGuard, 'operator'>; charts: AnalyticsChartsReader },
): void {
  app.get('/api/apps/:appId/admin/analytics', async (request) => {
    const { appId } = parseInput(AppParamsSchema, request.params);
    await deps.guard.operator(request, appId);
    const { days } = parseInput(AnalyticsQuerySchema, request.query);
    return deps.charts.read(appId, days as AnalyticsRange);
  });
}
