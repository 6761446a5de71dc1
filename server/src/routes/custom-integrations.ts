import type { FastifyInstance } from 'fastify';
import { InvalidInputError } from '../lib/errors';
import { parseInput } from '../lib/validation';
import { CustomCallParamsSchema, CustomCallSchema } from '../schemas/custom-integrations';
import { requireSignInUnlessOpen } from '../services/identity/app-access';
import type { AppsService } from '../services/apps/apps-service';
import type { CustomIntegrations } from '../services/integrations/custom/custom-integrations-service';
import type { IntegrationBudget } from '../services/integrations/integration-budget';
import type { CallerGuard } from './caller-guard';

/** CustomIntegrationsDeps is what the custom integration route needs. */
export interface CustomIntegrationsRouteDeps {
  guard: CallerGuard;
  apps: AppsService;
  budget: IntegrationBudget;
  custom: CustomIntegrations;
}

/**
 * registerCustomIntegrationsRoutes adds `POST /api/apps/{app}/integrations/custom/{slug}/{operationId}`.
 * The SDK puts the operation id (`get:/repos/{owner}/{repo}`) into the path unencoded, so it is the rest
 * of the path. Order: the per-IP budget, the app, the operation (an unknown one is a 404 for anyone, as
 * the SDK's own tests expect), then the caller: signed-in users and the service role, anonymous callers
 * only on a `public_without_login` app (each call may spend the app's credentials upstream).
 */
export function registerCustomIntegrationsRoutes(
  app: FastifyInstance,
  deps: CustomIntegrationsRouteDeps,
): void {
  app.post('/api/apps/:appId/integrations/custom/:slug/*', async (request) => {
    const { appId, slug, '*': operationId } = parseInput(CustomCallParamsSchema, request.params);
    await deps.budget.perIp(request.ip);
    await deps.guard.principal(request, appId);
    const found = deps.custom.find(slug, operationId);
    const caller = await deps.guard.dataCaller(request, appId);
    if (caller.kind === 'anonymous') {
      const { visibility } = await deps.apps.findAccessSettings(appId);
      requireSignInUnlessOpen(visibility, caller, 'Sign in to call custom integrations of this app');
    }
    await deps.budget.perCaller(appId, caller);
    const body: unknown = request.body ?? {};
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new InvalidInputError(
        'A custom integration call needs a JSON object body ({path_params, query_params, headers, payload})',
      );
    }
    return deps.custom.call(appId, found, parseInput(CustomCallSchema, body));
  });
}
