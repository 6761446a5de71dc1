import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseInput } from '../lib/validation';
import { AppParamsSchema } from '../schemas/apps';
import { AdminCreateUserSchema, AdminUpdateUserSchema, AppSettingsSchema } from '../schemas/auth';
import type { AppsService } from '../services/apps/apps-service';
import type { UsersService } from '../services/users/users-service';
import type { CallerGuard } from './caller-guard';

/** AdminRoutesDeps is what the operator API needs. */
export interface AdminRoutesDeps {
  apps: AppsService;
  users: UsersService;
  guard: CallerGuard;
}

/**
 * registerAdminRoutes adds the operator API under `/api/apps/:appId/admin/`, for the service role only.
 * The CLI uses it while a server is running, so the database is never opened by two processes.
 */
export function registerAdminRoutes(app: FastifyInstance, deps: AdminRoutesDeps): void {
  const serviceApp = async (request: FastifyRequest) => {
    const { appId } = parseInput(AppParamsSchema, request.params);
    await deps.guard.service(request, appId);
    return appId;
  };

  app.post('/api/apps/:appId/admin/users', async (request, reply) => {
    const appId = await serviceApp(request);
    const user = await deps.users.createUser(appId, parseInput(AdminCreateUserSchema, request.body));
    return reply.code(201).send(user);
  });

  app.patch('/api/apps/:appId/admin/users', async (request) => {
    const appId = await serviceApp(request);
    const { email, ...changes } = parseInput(AdminUpdateUserSchema, request.body);
    return deps.users.updateByEmail(appId, email, changes);
  });

  app.put('/api/apps/:appId/admin/settings', async (request) => {
    const appId = await serviceApp(request);
    const input = parseInput(AppSettingsSchema, request.body);
    return deps.apps.updateSettings(appId, { visibility: input.visibility, selfSignup: input.self_signup });
  });
}
