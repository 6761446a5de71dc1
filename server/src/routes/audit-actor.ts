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
