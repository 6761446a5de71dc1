// Paths of capabilities later issues bring (agents): a Base44 app calling them gets a 501 that names what is
// missing, never the generic 404 of an unknown API path (docs/protocol-notes.md, "Capabilities not here
// yet").
import type { FastifyInstance } from 'fastify';
import { NotImplementedError } from '../lib/errors';

/** registerNotYetRoutes answers agents calls with 501 and the capability's name. */
export function registerNotYetRoutes(app: FastifyInstance): void {
  const agentsNotYet = async () => {
    throw new NotImplementedError('Agents are not available on this server yet');
  };
  app.all('/api/apps/:appId/agents', agentsNotYet);
  app.all('/api/apps/:appId/agents/*', agentsNotYet);
}
