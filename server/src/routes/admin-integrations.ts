// The console's Integrations page under `/api/apps/:appId/admin/integrations`: one summary read, and the
// actions apart (the LLM check, a custom integration operation's "try", the files prune) so the page's first
// load calls no provider. Admins or SERVICE_TOKEN only; a function call's own token is refused.
import type { FastifyInstance } from 'fastify';
import { parseInput } from '../lib/validation';
import {
  AdminCustomParamsSchema,
  MAX_TRY_BODY_BYTES,
  PruneFilesSchema,
  TryOperationSchema,
} from '../schemas/admin-integrations';
import { AppParamsSchema } from '../schemas/apps';
import type { IntegrationsConsole } from '../services/admin/integrations-console';
import { operatorActorOf } from './audit-actor';
import type { CallerGuard } from './caller-guard';

/** registerAdminIntegrationRoutes adds the Integrations page's endpoints. */
export function registerAdminIntegrationRoutes(
  app: FastifyInstance,
  deps: { guard: Pick<CallerGuard, 'operator'>; console: IntegrationsConsole },
): void {
  app.get('/api/apps/:appId/admin/integrations', async (request) => {
    const { appId } = parseInput(AppParamsSchema, request.params);
    await deps.guard.operator(request, appId);
    return deps.console.summary();
  });

  app.post('/api/apps/:appId/admin/integrations/llm/check', async (request) => {
    const { appId } = parseInput(AppParamsSchema, request.params);
    await deps.guard.operator(request, appId);
    return deps.console.checkLlm();
  });

  app.post(
    '/api/apps/:appId/admin/integrations/custom/:slug/try',
    { bodyLimit: MAX_TRY_BODY_BYTES },
    async (request) => {
      const { appId, slug } = parseInput(AdminCustomParamsSchema, request.params);
      const { actor } = await operatorActorOf(deps.guard, request, appId);
      const { operation, ...input } = parseInput(TryOperationSchema, request.body ?? {});
      return deps.console.tryOperation(actor, slug, operation, input);
    },
  );

  app.post('/api/apps/:appId/admin/integrations/files/prune', async (request) => {
    const { appId } = parseInput(AppParamsSchema, request.params);
    const { actor } = await operatorActorOf(deps.guard, request, appId);
    const input = parseInput(PruneFilesSchema, request.body ?? {});
    return deps.console.pruneFiles(actor, input.dry_run, input.min_age_hours);
  });
}
