import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseInput } from '../lib/validation';
import { AppParamsSchema } from '../schemas/apps';
import { InviteUserSchema, UpdateMeSchema, UserParamsSchema } from '../schemas/auth';
import { toPublicUser } from '../services/users/public-user';
import type { UsersService } from '../services/users/users-service';
import { linkOriginOf } from './request-origin';
import type { CallerGuard } from './caller-guard';

/** UsersRoutesDeps is what the user, invite and SSO routes need. */
export interface UsersRoutesDeps {
  guard: CallerGuard;
  users: UsersService;
  publicUrl: string | undefined;
}

/** registerUsersRoutes adds `entities/User/me`, both invite routes and the service-role SSO tokens. */
export function registerUsersRoutes(app: FastifyInstance, deps: UsersRoutesDeps): void {
  const me = async (request: FastifyRequest) => {
    const { appId } = parseInput(AppParamsSchema, request.params);
    // The caller's own record stays reachable on a private app: the site asks it to tell "sign in" from
    // "not registered".
    return deps.guard.user(request, appId);
  };

  app.get('/api/apps/:appId/entities/User/me', async (request) => toPublicUser(await me(request)));

  app.put('/api/apps/:appId/entities/User/me', async (request) => {
    const user = await me(request);
    return deps.users.updateMe(user, parseInput(UpdateMeSchema, request.body));
  });

  const invite = async (request: FastifyRequest) => {
    const { appId } = parseInput(AppParamsSchema, request.params);
    await deps.guard.admin(request, appId);
    const input = parseInput(InviteUserSchema, request.body);
    return deps.users.invite(appId, input, linkOriginOf(request, deps.publicUrl));
  };
  app.post('/api/apps/:appId/users/invite-user', invite);
  app.post('/api/apps/:appId/runtime/users/invite-user', invite);

  app.get('/api/apps/:appId/auth/sso/accesstoken/:userId', async (request) => {
    const { appId, userId } = parseInput(UserParamsSchema, request.params);
    await deps.guard.service(request, appId);
    return deps.users.ssoAccessToken(appId, userId);
  });

  app.get('/api/apps/:appId/auth/sso/idtoken/:userId', async (request, reply) => {
    const { appId, userId } = parseInput(UserParamsSchema, request.params);
    await deps.guard.service(request, appId);
    const token = await deps.users.ssoIdToken(appId, userId);
    // A JSON string body: the SDK hands it back as the raw token string.
    return reply.type('application/json; charset=utf-8').send(JSON.stringify(token));
  });
}
