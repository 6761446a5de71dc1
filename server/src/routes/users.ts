import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseInput } from '../lib/validation';
import { AppParamsSchema } from '../schemas/apps';
import { InviteUserSchema, UpdateMeSchema, UserParamsSchema } from '../schemas/auth';
import type { AppsService } from '../services/apps/apps-service';
import type { SessionService } from '../services/auth/session-service';
import { toPublicUser } from '../services/users/public-user';
import type { UsersService } from '../services/users/users-service';
import { linkOriginOf } from './auth';

/** UsersRoutesDeps is what the user, invite and SSO routes need. */
export interface UsersRoutesDeps {
  apps: AppsService;
  users: UsersService;
  sessions: SessionService;
  publicUrl: string | undefined;
}

function onBehalfOf(request: FastifyRequest): string | undefined {
  const header = request.headers['on-behalf-of'];
  return Array.isArray(header) ? header[0] : header;
}

/** registerUsersRoutes adds `entities/User/me`, both invite routes and the service-role SSO tokens. */
export function registerUsersRoutes(app: FastifyInstance, deps: UsersRoutesDeps): void {
  const me = async (request: FastifyRequest) => {
    const { appId } = parseInput(AppParamsSchema, request.params);
    await deps.apps.requireApp(appId);
    return deps.sessions.requireUser(appId, request.headers.authorization, onBehalfOf(request));
  };

  app.get('/api/apps/:appId/entities/User/me', async (request) => toPublicUser(await me(request)));

  app.put('/api/apps/:appId/entities/User/me', async (request) => {
    const user = await me(request);
    return deps.users.updateMe(user, parseInput(UpdateMeSchema, request.body));
  });

  const invite = async (request: FastifyRequest) => {
    const { appId } = parseInput(AppParamsSchema, request.params);
    await deps.apps.requireApp(appId);
    await deps.sessions.requireAdmin(appId, request.headers.authorization);
    const input = parseInput(InviteUserSchema, request.body);
    return deps.users.invite(appId, input, linkOriginOf(request, deps.publicUrl));
  };
  app.post('/api/apps/:appId/users/invite-user', invite);
  app.post('/api/apps/:appId/runtime/users/invite-user', invite);

  app.get('/api/apps/:appId/auth/sso/accesstoken/:userId', async (request) => {
    const { appId, userId } = parseInput(UserParamsSchema, request.params);
    await deps.sessions.requireService(appId, request.headers.authorization);
    return deps.users.ssoAccessToken(appId, userId);
  });

  app.get('/api/apps/:appId/auth/sso/idtoken/:userId', async (request, reply) => {
    const { appId, userId } = parseInput(UserParamsSchema, request.params);
    await deps.sessions.requireService(appId, request.headers.authorization);
    const token = await deps.users.ssoIdToken(appId, userId);
    // A JSON string body: the SDK hands it back as the raw token string.
    return reply.type('application/json; charset=utf-8').send(JSON.stringify(token));
  });
}
