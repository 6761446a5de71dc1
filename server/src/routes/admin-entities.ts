import type { FastifyInstance } from 'fastify';
import { parseInput } from '../lib/validation';
import { AppParamsSchema } from '../schemas/apps';
import type { AdminEntities } from '../services/admin/admin-entities';
import type { CallerGuard } from './caller-guard';

/** AdminEntityRoutesDeps is what the console's entity list needs. */
export interface AdminEntityRoutesDeps {
  guard: CallerGuard;
  entities: AdminEntities;
}

/**
 * registerAdminEntityRoutes adds `GET /api/apps/:appId/admin/entities` (the app's admins and the service
 * role): each entity's name, record count, JSON schema and rules, for the console's Data page.
 */
export function registerAdminEntityRoutes(app: FastifyInstance, deps: AdminEntityRoutesDeps): void {
  app.get('/api/apps/:appId/admin/entities', async (request) => {
    const { appId } = parseInput(AppParamsSchema, request.params);
    await deps.guard.operator(request, appId);
    return deps.entities.list(appId);
  });
}
