import type { FastifyRequest } from 'fastify';
import { CLI_USER_AGENT } from '../lib/cli-user-agent';
import type { AuditActor } from '../services/audit/audit-log';
import type { CallerGuard, UserRow } from './caller-guard';

/** serviceActorOf is who a service-role change comes from, for the audit log: the CLI, or another client. */
export function serviceActorOf(request: FastifyRequest): AuditActor {
  const agent = request.headers['user-agent'] ?? '';
  return { kind: 'service', via: agent.startsWith(CLI_USER_AGENT) ? 'cli' : 'api' };
}

/**
 * importActorOf is who an import is audited as: an admin user, or the service role by SERVICE_TOKEN; null
 * for anyone else (a user, an anonymous caller, a function call's own token), whose imports are not audited.
 */
export async function importActorOf(
  guard: Pick<CallerGuard, 'principal'>,
  request: FastifyRequest,
  appId: string,
): Promise<AuditActor | null> {
  const principal = await guard.principal(request, appId);
  if (principal.kind === 'user' && principal.user.role === 'admin') {
    return { kind: 'admin', id: principal.user.id, email: principal.user.email };
  }
  return principal.kind === 'service' && !principal.functionCall ? serviceActorOf(request) : null;
}

/**
 * operatorActorOf admits the console's callers (the app's admins, or the service role by SERVICE_TOKEN) and
 * names who acts, for the audit log: the admin user (null for the service role) and the actor.
 */
export async function operatorActorOf(
  guard: Pick<CallerGuard, 'operator'>,
  request: FastifyRequest,
  appId: string,
): Promise<{ admin: UserRow | null; actor: AuditActor }> {
  const admin = await guard.operator(request, appId);
  const actor: AuditActor = admin
    ? { kind: 'admin', id: admin.id, email: admin.email }
    : serviceActorOf(request);
  return { admin, actor };
}
