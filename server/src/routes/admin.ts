import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ForbiddenError } from '../lib/errors';
import { parseInput } from '../lib/validation';
import type { RealtimeHub } from '../realtime/realtime-hub';
import { AppParamsSchema, AuditLogQuerySchema, LlmUsageQuerySchema } from '../schemas/apps';
import {
  AdminCreateUserSchema,
  AdminUpdateUserSchema,
  AppSettingsSchema,
  InviteUserSchema,
} from '../schemas/auth';
import { RealtimePingSchema } from '../schemas/realtime';
import { SecretParamsSchema, SecretValueSchema } from '../schemas/secrets';
import type { AdminChanges } from '../services/admin/admin-changes';
import type { AppOverviewReader } from '../services/admin/app-overview';
import type { EntityBrowser } from '../services/admin/entity-browser';
import { ViewAsParamsSchema, ViewAsQuerySchema } from '../schemas/admin-entities';
import { parseQuery } from './entities';
import type { TestMail } from '../services/admin/test-mail';
import type { AdminUsers } from '../services/admin/admin-users';
import type { AdminUserChanges, Operator } from '../services/admin/admin-user-changes';
import { AdminUserChangeSchema, AdminUserParamsSchema, AdminUsersQuerySchema } from '../schemas/admin-users';
import { userCaller } from '../rules/caller';
import { linkOriginOf } from './request-origin';
import type { AuditLog } from '../services/audit/audit-log';
import { operatorActorOf, serviceActorOf as actorOf } from './audit-actor';
import type { LlmService } from '../services/llm/llm-service';
import type { SecretsService } from '../services/secrets/secrets-service';
import type { CallerGuard } from './caller-guard';

/** AdminRoutesDeps is what the operator API needs. */
export interface AdminRoutesDeps {
  changes: AdminChanges;
  audit: Pick<AuditLog, 'list'>;
  guard: CallerGuard;
  hub: RealtimeHub;
  secrets: Pick<SecretsService, 'names' | 'listSet'>;
  llm: Pick<LlmService, 'recentUsage'>;
  overview: AppOverviewReader;
  browser: EntityBrowser;
  testMail: TestMail;
  users: AdminUsers;
  userChanges: AdminUserChanges;
  /** publicUrl is where mailed links (invites, resets) point, else the request's own origin. */
  publicUrl: string | undefined;
}

/**
 * registerAdminRoutes adds the operator API under `/api/apps/:appId/admin/`, for the service role (and, for
 * the console's overview and secrets, the app's admins). The CLI uses it while a server is running, so the database is
 * never opened by two processes.
 */
export function registerAdminRoutes(app: FastifyInstance, deps: AdminRoutesDeps): void {
  const serviceApp = async (request: FastifyRequest) => {
    const { appId } = parseInput(AppParamsSchema, request.params);
    await deps.guard.service(request, appId);
    return appId;
  };
  // The console's calls: the app's admin users, or the service role by SERVICE_TOKEN (never a function
  // call's own token); a change is recorded as the admin's, and user rules see the admin as the caller.
  const operatorOf = async (request: FastifyRequest): Promise<{ appId: string; by: Operator }> => {
    const { appId } = parseInput(AppParamsSchema, request.params);
    const { admin, actor } = await operatorActorOf(deps.guard, request, appId);
    return { appId, by: { caller: admin ? userCaller(admin) : { kind: 'service' }, actor } };
  };
  const adminApp = async (request: FastifyRequest) => {
    const { appId, by } = await operatorOf(request);
    return { appId, actor: by.actor };
  };

  // The console's Overview: the app, its counts, how this server runs and what start-up warned about.
  app.get('/api/apps/:appId/admin/overview', async (request) =>
    deps.overview.find((await adminApp(request)).appId),
  );

  // The console's Data page: each entity's schema and rules, and apart (a count reads every record) the counts.
  app.get('/api/apps/:appId/admin/entities', async (request) => {
    await adminApp(request);
    return deps.browser.entities();
  });
  app.get('/api/apps/:appId/admin/entities/counts', async (request) =>
    deps.browser.counts((await adminApp(request)).appId),
  );

  // "View as user": the page that user's own list call would get, under the same rules in the same read.
  app.get('/api/apps/:appId/admin/entities/:entity/view-as/:userId', async (request) => {
    const { actor } = await adminApp(request);
    const { appId, entity, userId } = parseInput(ViewAsParamsSchema, request.params);
    const { q, ...page } = parseInput(ViewAsQuerySchema, request.query);
    const query = parseQuery(q);
    // A read, so not audited; logged so an operator can tell who looked through whose eyes.
    request.log.info(
      { admin: actor.kind === 'admin' ? actor.id : actor.kind, entity, userId },
      'console view-as',
    );
    return deps.browser.viewAs(appId, entity, userId, { query, ...page });
  });

  // The console's "Send a test mail": to the signed-in admin, rate-limited, audited without content.
  app.post('/api/apps/:appId/admin/mail/test', async (request) => {
    const { appId, actor } = await adminApp(request);
    return deps.testMail.send(appId, actor);
  });

  // The console's Users table: a page of 50, searched by email or name, sorted, filtered by role and status.
  app.get('/api/apps/:appId/admin/users', async (request) => {
    const { appId } = await adminApp(request);
    return deps.users.list(appId, parseInput(AdminUsersQuerySchema, request.query));
  });

  // What the Users page's forms offer: the app's roles and User.jsonc's custom fields.
  app.get('/api/apps/:appId/admin/users/fields', async (request) => {
    await adminApp(request);
    return deps.users.fields();
  });

  // The console's invite: the SDK's users.inviteUser (same mail, same link), audited as the operator's.
  app.post('/api/apps/:appId/admin/users/invite', async (request) => {
    const { appId, by } = await operatorOf(request);
    const input = parseInput(InviteUserSchema, request.body);
    return deps.userChanges.invite(appId, by, input, linkOriginOf(request, deps.publicUrl));
  });

  // The console's change to one user: role, disabled and/or custom fields (validated as every user update).
  app.patch('/api/apps/:appId/admin/users/:id', async (request) => {
    const { appId, by } = await operatorOf(request);
    const { id } = parseInput(AdminUserParamsSchema, request.params);
    return deps.userChanges.change(appId, by, id, parseInput(AdminUserChangeSchema, request.body));
  });

  // Mails the user a link to choose a new password: no one sets another user's password.
  app.post('/api/apps/:appId/admin/users/:id/password-reset', async (request) => {
    const { appId, by } = await operatorOf(request);
    const { id } = parseInput(AdminUserParamsSchema, request.params);
    return deps.userChanges.mailReset(appId, by, id, linkOriginOf(request, deps.publicUrl));
  });

  app.post('/api/apps/:appId/admin/users', async (request, reply) => {
    const appId = await serviceApp(request);
    const input = parseInput(AdminCreateUserSchema, request.body);
    const user = await deps.changes.createUser(appId, actorOf(request), input);
    return reply.code(201).send(user);
  });

  app.patch('/api/apps/:appId/admin/users', async (request) => {
    const appId = await serviceApp(request);
    const { email, ...changes } = parseInput(AdminUpdateUserSchema, request.body);
    return deps.changes.updateUser(appId, actorOf(request), email, changes);
  });

  // Visibility and self-sign-up: the CLI's `app-settings` (service role) and the console's Settings page (admins).
  app.put('/api/apps/:appId/admin/settings', async (request) => {
    const { appId, actor } = await adminApp(request);
    const input = parseInput(AppSettingsSchema, request.body);
    return deps.changes.updateSettings(appId, actor, {
      visibility: input.visibility,
      selfSignup: input.self_signup,
    });
  });

  // Every change an operator made, newest first (paged by `before`, the last entry's logged_at).
  app.get('/api/apps/:appId/admin/audit-log', async (request) => {
    const appId = await serviceApp(request);
    const query = parseInput(AuditLogQuerySchema, request.query);
    return { items: await deps.audit.list(appId, query) };
  });

  // What the LLM integrations spent, newest first: tokens per call, model and caller.
  app.get('/api/apps/:appId/admin/llm-usage', async (request) => {
    const appId = await serviceApp(request);
    const { limit } = parseInput(LlmUsageQuerySchema, request.query);
    return { items: await deps.llm.recentUsage(appId, limit) };
  });

  // App secrets (the CLI's `secrets` commands and the console's Secrets page): names and when each was set
  // go out, values only come in.
  app.get('/api/apps/:appId/admin/secrets', async (request) => {
    const { appId } = await adminApp(request);
    const secrets = await deps.secrets.listSet(appId);
    return { names: secrets.map((secret) => secret.name), secrets };
  });

  app.put('/api/apps/:appId/admin/secrets/:name', async (request) => {
    const { actor } = await adminApp(request);
    const { appId, name } = parseInput(SecretParamsSchema, request.params);
    const { value } = parseInput(SecretValueSchema, request.body);
    await deps.changes.setSecret(appId, actor, name, value);
    return { name, set: true };
  });

  app.delete('/api/apps/:appId/admin/secrets/:name', async (request) => {
    const { actor } = await adminApp(request);
    const { appId, name } = parseInput(SecretParamsSchema, request.params);
    await deps.changes.deleteSecret(appId, actor, name);
    return { name, deleted: true };
  });

  /**
   * `realtime/ping {room}` publishes a `ping` event to the room through the hub, so an operator can check
   * that an event sent on one instance reaches sockets connected to another. The event carries only the
   * room and a time.
   */
  app.post('/api/apps/:appId/admin/realtime/ping', async (request, reply) => {
    const appId = await serviceApp(request);
    const { room } = parseInput(RealtimePingSchema, request.body);
    // Rooms are named `<kind>:<appId>:…`: a service token reaches only its own app's rooms.
    if (!room.split(':').includes(appId)) {
      throw new ForbiddenError(`The room must belong to app ${appId}, e.g. entities:${appId}:Todo`);
    }
    const sentAt = new Date().toISOString();
    deps.hub.publish(room, 'ping', { type: 'ping', room, sent_at: sentAt });
    return reply.code(202).send({ room, event: 'ping', sent_at: sentAt });
  });
}
