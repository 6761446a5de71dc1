// Paths of capabilities later issues bring (backend functions, agents): a Base44 app calling them gets a 501
// that names what is missing, never the generic 404 of an unknown API path (shared/spec/platform-protocol.md
// §2.4, §2.5). LLM, e-mail and extraction integrations answer the same from routes/integrations.ts.
import type { FastifyInstance } from 'fastify';
import { NotImplementedError } from '../lib/errors';

/** functionName is the function a functions path names, bounded so a long URL is not echoed back. */
function functionName(url: string): string {
  const path = url.split('?')[0] ?? '';
  const name = path.replace(/^\/api\/(apps\/[^/]+\/)?functions\/?/, '').split('/')[0] ?? '';
  return decodeURIComponent(name).slice(0, 80);
}

/** registerNotYetRoutes answers functions and agents calls with 501 and the capability's name. */
export function registerNotYetRoutes(app: FastifyInstance): void {
  const functionsNotYet = (url: string) => {
    const name = functionName(url);
    throw new NotImplementedError(
      `Backend functions are not available on this server yet${name ? ` (function ${name})` : ''}`,
    );
  };
  // invoke: /api/apps/{app}/functions/{name}; functions.fetch: /api/functions/{path} (no app id).
  app.all('/api/apps/:appId/functions/*', async (request) => functionsNotYet(request.url));
  app.all('/api/functions/*', async (request) => functionsNotYet(request.url));
  const agentsNotYet = async () => {
    throw new NotImplementedError('Agents are not available on this server yet');
  };
  app.all('/api/apps/:appId/agents', agentsNotYet);
  app.all('/api/apps/:appId/agents/*', agentsNotYet);
}
