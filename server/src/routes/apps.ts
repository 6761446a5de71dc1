import type { FastifyInstance } from 'fastify';
import { parseInput } from '../lib/validation';
import { safeRedirectTarget } from '../lib/redirect-target';
import { AppParamsSchema } from '../schemas/apps';
import { LogoutQuerySchema } from '../schemas/auth';
import { standingOf } from '../services/apps/app-access';
import type { AppsService, Visitor } from '../services/apps/apps-service';
import type { CallerGuard } from './caller-guard';
import { ownOriginOf } from './request-origin';

/** AppsRoutesDeps is what public settings and logout need. */
export interface AppsRoutesDeps {
  apps: AppsService;
  guard: CallerGuard;
  publicUrl: string | undefined;
}

/** registerAppsRoutes adds public settings (visibility-aware) and the logout redirect. */
export function registerAppsRoutes(app: FastifyInstance, deps: AppsRoutesDeps): void {
  app.get('/api/apps/public/prod/public-settings/by-id/:appId', async (request) => {
    const { appId } = parseInput(AppParamsSchema, request.params);
    // NB: a public route treats a bad token as no token rather than failing.
    const standing = standingOf(await deps.guard.principal(request, appId));
    const visitor: Visitor =
      standing === 'anonymous' ? 'anonymous' : standing === 'unapproved' ? 'not_registered' : 'approved';
    return deps.apps.publicSettingsFor(appId, visitor);
  });

  // Tokens live in the browser, so there is no session to end here: only the redirect, kept on this site.
  app.get('/api/apps/auth/logout', async (request, reply) => {
    const query = LogoutQuerySchema.safeParse(request.query);
    const fromUrl = query.success ? query.data.from_url : undefined;
    const own = ownOriginOf(request, deps.publicUrl);
    const origins = own ? [own] : [];
    return reply.header('cache-control', 'no-store').redirect(safeRedirectTarget(fromUrl, origins), 302);
  });
}
