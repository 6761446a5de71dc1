import type { FastifyInstance } from 'fastify';
import { parseInput } from '../lib/validation';
import { AppParamsSchema } from '../schemas/apps';
import { standingOf } from '../services/identity/app-access';
import type { AppsService } from '../services/apps/apps-service';
import type { CallerGuard } from './caller-guard';

/** PublicSettingsRoutesDeps is what the public settings need. */
export interface PublicSettingsRoutesDeps {
  apps: AppsService;
  guard: CallerGuard;
}

/** registerPublicSettingsRoutes adds `/api/apps/public/*`: the app's public settings, visibility-aware. */
export function registerPublicSettingsRoutes(app: FastifyInstance, deps: PublicSettingsRoutesDeps): void {
  app.get('/api/apps/public/prod/public-settings/by-id/:appId', async (request) => {
    const { appId } = parseInput(AppParamsSchema, request.params);
    // NB: a public route treats a bad token as no token rather than failing.
    const standing = standingOf(await deps.guard.principal(request, appId));
    return deps.apps.publicSettingsFor(appId, standing);
  });
}
