// The console's Functions page under `/api/apps/:appId/admin/functions`: the list (24 h figures,
// automations, schedules), a test call as the admin or a chosen user, and "run now" of a schedule (audited).
// Admins or SERVICE_TOKEN only; a function call's own token is refused.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parseInput } from '../lib/validation';
import {
  AdminFunctionParamsSchema,
  AdminScheduleParamsSchema,
  InvokeFunctionSchema,
} from '../schemas/admin-functions';
import type { FunctionsConsole } from '../services/admin/functions-console';
import { operatorActorOf } from './audit-actor';
import type { CallerGuard } from './caller-guard';

export interface AdminFunctionRoutesDeps {
  guard: CallerGuard;
  console: FunctionsConsole;
}

const AppParams = z.object({ appId: z.string().min(1).max(64) });

/** registerAdminFunctionRoutes adds the Functions page's endpoints. */
export function registerAdminFunctionRoutes(app: FastifyInstance, deps: AdminFunctionRoutesDeps): void {
  app.get('/api/apps/:appId/admin/functions', async (request) => {
    const { appId } = parseInput(AppParams, request.params);
    await deps.guard.operator(request, appId);
    return { functions: await deps.console.list() };
  });

  app.post('/api/apps/:appId/admin/functions/:name/invoke', async (request) => {
    const { appId, name } = parseInput(AdminFunctionParamsSchema, request.params);
    const { admin } = await operatorActorOf(deps.guard, request, appId);
    const input = parseInput(InvokeFunctionSchema, request.body);
    return deps.console.invoke(name, input.body ?? {}, { admin, userId: input.as_user_id }, request.id);
  });

  app.post('/api/apps/:appId/admin/functions/:name/schedules/:automation/run', async (request) => {
    const { appId, name, automation } = parseInput(AdminScheduleParamsSchema, request.params);
    const { actor } = await operatorActorOf(deps.guard, request, appId);
    return deps.console.runNow(actor, name, automation);
  });
}
