import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseInput } from '../lib/validation';
import { AppParamsSchema } from '../schemas/apps';
import { InviteUserSchema } from '../schemas/auth';
import type { UsersService } from '../services/auth/users-service';
import type { CallerGuard } from './caller-guard';
import { linkOriginOf } from './request-origin';

/** UsersRoutesDeps is what the invite routes need. */
export interface UsersRoutesDeps {
  guard: CallerGuard;
  users: UsersService;
  publicUrl: string | undefined;
}

/**
 * registerUsersRoutes adds `/api/apps/:appId/users/*` and its `runtime/users/*` twin: inviting a user (the
 * caller's own record is `entities/User/me`, in routes/entities.ts).
 */
export function registerUsersRoutes(app: FastifyInstance, deps: UsersRoutesDeps): void {
  const invite = async (request: FastifyRequest) => {
    const { appId } = parseInput(AppParamsSchema, request.params);
    await deps.guard.admin(request, appId);
    const input = parseInput(InviteUserSchema, request.body);
    return deps.users.invite(appId, input, linkOriginOf(request, deps.publicUrl));
  };
  app.post('/api/apps/:appId/users/invite-user', invite);
  app.post('/api/apps/:appId/runtime/users/invite-user', invite);
}
