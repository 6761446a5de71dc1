import type { FastifyInstance } from 'fastify';
import { parseInput } from '../lib/validation';
import { AppParamsSchema } from '../schemas/apps';
import type { AppsService } from '../services/apps/apps-service';

/** registerAppsRoutes adds public settings and the signed-in user lookup. */
export function registerAppsRoutes(app: FastifyInstance, apps: AppsService): void {
  app.get('/api/apps/public/prod/public-settings/by-id/:appId', async (request) => {
    const { appId } = parseInput(AppParamsSchema, request.params);
    return apps.findPublicSettings(appId);
  });

  app.get('/api/apps/:appId/entities/User/me', async (request, reply) => {
    const { appId } = parseInput(AppParamsSchema, request.params);
    await apps.requireApp(appId);
    // TODO(accounts): answer with the signed-in user once accounts land; until then nobody is signed in.
    return reply.code(401).send({ message: 'Authentication required: sign in to continue' });
  });
}
