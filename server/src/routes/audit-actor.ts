import type { FastifyRequest } from 'fastify';
import { CLI_USER_AGENT } from '../lib/cli-user-agent';
import type { AuditActor } from '../services/audit/audit-log';

/** serviceActorOf is who a service-role change comes from, for the audit log: the CLI, or another client. */
export function serviceActorOf(request: FastifyRequest): AuditActor {
  const agent = request.headers['user-agent'] ?? '';
  return { kind: 'service', via: agent.startsWith(CLI_USER_AGENT) ? 'cli' : 'api' };
}
