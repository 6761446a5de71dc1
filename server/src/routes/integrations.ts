import type { FastifyInstance } from 'fastify';
import { InvalidInputError, NotFoundError, NotImplementedError } from '../lib/errors';
import { parseInput } from '../lib/validation';
import { InstallableParamsSchema, IntegrationParamsSchema } from '../schemas/integrations';
import { requireSignInUnlessOpen } from '../services/identity/app-access';
import type { AppsService } from '../services/apps/apps-service';
import type { CallerGuard } from './caller-guard';
import type { CoreHandler } from './core-handlers';
import type { IntegrationBudget } from '../services/integrations/integration-budget';

/** IntegrationsDeps is what the Core integration routes need. */
export interface IntegrationsDeps {
  guard: CallerGuard;
  apps: Pick<AppsService, 'findAccessSettings'>;
  budget: IntegrationBudget;
  /** handlers answer the Core names, each contributed by its capability's part (`core-handlers.ts`). */
  handlers: Record<string, CoreHandler>;
}

/**
 * SIGN_IN_UNLESS_OPEN are the Core integrations that spend the server's resources (a provider's images,
 * parser workers and remote fetches) without a service of their own that asks for sign-in: like InvokeLLM
 * and uploads, they need a signed-in caller unless the app is `public_without_login`.
 */
const SIGN_IN_UNLESS_OPEN = new Set(['GenerateImage', 'ExtractDataFromUploadedFile']);

function describeValue(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `a string (${JSON.stringify(value.slice(0, 40))})`;
  return `a ${typeof value}`;
}

/** requireNamedParameters checks that an integration body is a JSON object, as the SDK contract demands. */
function requireNamedParameters(endpoint: string, body: unknown): object {
  if (body === undefined || body === null || body === '') {
    throw new InvalidInputError(
      `Integration ${endpoint} needs a JSON object body such as {"prompt": "..."}; the request body was empty`,
    );
  }
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw new InvalidInputError(
      `Integration ${endpoint} must receive an object with named parameters, received: ${describeValue(body)}`,
    );
  }
  return body;
}

/**
 * registerIntegrationsRoutes adds `Core/<Name>` integrations: GenerateImage here, the file ones in files.ts,
 * SendEmail, extraction, InvokeLLM and TranscribeAudio through core-handlers.ts;
 * any other Core name answers 501 naming it.
 */
export function registerIntegrationsRoutes(app: FastifyInstance, deps: IntegrationsDeps): void {
  app.post('/api/apps/:appId/integration-endpoints/Core/:name', async (request, reply) => {
    const { appId, name } = parseInput(IntegrationParamsSchema, request.params);
    // The per-IP budget is spent before anything else; the caller's right and per-user budget next.
    await deps.budget.perIp(request.ip);
    // A token the server rejects counts as anonymous, as on the site's other fire-and-forget calls.
    const caller = await deps.guard.dataCaller(request, appId, { badTokenAsAnonymous: true });
    if (caller.kind === 'anonymous' && SIGN_IN_UNLESS_OPEN.has(name)) {
      const { visibility } = await deps.apps.findAccessSettings(appId);
      requireSignInUnlessOpen(
        visibility,
        caller,
        `${name} needs a signed-in user on this app: sign in first`,
      );
    }
    await deps.budget.perCaller(appId, caller);
    const handler = Object.hasOwn(deps.handlers, name) ? deps.handlers[name] : undefined;
    if (handler) {
      return handler({ request, reply, appId, caller, body: requireNamedParameters(name, request.body) });
    }
    // SendSMS and other names this server lacks: said as such (never a bare 404).
    throw new NotImplementedError(`Integration Core.${name} is not available on this server yet`);
  });

  // Installable packages (`integrations.<Package>.<Endpoint>`) are a hosted marketplace: none exists here.
  app.post(
    '/api/apps/:appId/integration-endpoints/installable/:package/integration-endpoints/:endpoint',
    async (request) => {
      const params = parseInput(InstallableParamsSchema, request.params);
      await deps.guard.principal(request, params.appId);
      throw new NotFoundError(
        `integration package ${printable(params.package)} is not installed on this server`,
      );
    },
  );
}

/** printable is a caller-chosen name fit to echo: visible characters only, at most 60 of them. */
function printable(name: string): string {
  const visible = name.replace(/[^\p{L}\p{N}_.-]/gu, '').slice(0, 60);
  return visible === '' ? '(unnamed)' : visible;
}
