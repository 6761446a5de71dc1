// Backend functions over HTTP: `functions.invoke` (`/api/apps/{app}/functions/{name}`) and `functions.fetch`
// (`/api/functions/{name}/{rest}`, no app id: the app this server hosts). Bodies are streamed to the function
// unparsed (JSON, multipart, anything; bounded), and its answer is streamed back as it comes (a PDF).
import { pipeline, Transform, type TransformCallback } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { NotFoundError, PayloadTooLargeError } from '../lib/errors';
import { parseInput } from '../lib/validation';
import type { FunctionsService } from '../services/functions/functions-service';
import type { Principal } from '../services/identity/app-access';
import type { CallerGuard } from './caller-guard';
import { allowErrorDetail } from './error-map';

const InvokeParams = z.object({ appId: z.string().min(1).max(64), '*': z.string().max(2000) });
const FetchParams = z.object({ '*': z.string().max(2000) });

/** byteLimit passes a body through, failing it once it grows past max bytes. */
function byteLimit(max: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      seen += chunk.length;
      if (seen > max) callback(new PayloadTooLargeError('body too large'));
      else callback(null, chunk);
    },
  });
}

/**
 * limitedBody is raw bounded to max bytes. pipeline, unlike pipe, passes a caller that went away (or a
 * body cut short) on as an error, so the function call ends at once instead of waiting for its timeout.
 */
function limitedBody(raw: NodeJS.ReadableStream, max: number): Transform {
  const limited = byteLimit(max);
  pipeline(raw, limited, () => undefined);
  return limited;
}

/** pathForFunction re-encodes the decoded rest of a URL, so the path sent to the function is a valid one. */
function pathForFunction(rest: string, query: string): string {
  return `/${rest.split('/').map(encodeURIComponent).join('/')}${query}`;
}

export interface FunctionsRouteDeps {
  guard: CallerGuard;
  appId: string;
  functions: FunctionsService;
  maxBodyBytes: number;
}

/** callerIdOf is the user a call is made by: the signed-in user, or the one the service role acts for. */
function callerIdOf(principal: Principal | null): string | null {
  if (!principal) return null;
  if (principal.kind === 'user' || principal.kind === 'disabled') return principal.user.id;
  return principal.kind === 'service' ? (principal.onBehalfOf?.id ?? null) : null;
}

async function isAdmin(guard: CallerGuard, request: FastifyRequest, appId: string): Promise<boolean> {
  const principal = await guard.principal(request, appId).catch(() => null);
  return principal?.kind === 'user' && principal.user.role === 'admin';
}

/** registerFunctionsRoutes serves both function paths in a scope whose bodies stay raw streams. */
export async function registerFunctionsRoutes(app: FastifyInstance, deps: FunctionsRouteDeps): Promise<void> {
  const { guard, functions } = deps;

  async function call(request: FastifyRequest, reply: FastifyReply, appId: string, path: string) {
    // The app must exist; who the caller is, the function decides (it receives Authorization unchanged).
    // The log keeps the signed-in caller's id (the console filters calls by user).
    const principal = await guard.principal(request, appId).catch((error: unknown) => {
      if (error instanceof NotFoundError) throw error;
      return null;
    });
    // The id function logs keep this call under (`fetchLogs` `request_id`).
    reply.header('x-request-id', request.id);
    const found = functions.find(path);
    if (!found) throw new NotFoundError(`Function ${path.split('/')[0]?.slice(0, 80) ?? ''} not found`);
    const length = Number(request.headers['content-length'] ?? 0);
    if (length > deps.maxBodyBytes) {
      throw new PayloadTooLargeError(`The request body is larger than ${deps.maxBodyBytes} bytes`);
    }
    const raw = request.body as NodeJS.ReadableStream | undefined;
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    // Failures are error kinds the error map answers (function-errors.ts); a compile error's detail only
    // for the app's admins, decided when it is needed.
    allowErrorDetail(request, () => isAdmin(guard, request, appId));
    const answer = await functions.invoke(found.def, {
      method: request.method,
      path: pathForFunction(found.rest, query),
      headers: request.headers,
      requestId: request.id,
      userId: callerIdOf(principal),
      body: raw && typeof raw.pipe === 'function' ? limitedBody(raw, deps.maxBodyBytes) : null,
    });
    return reply.code(answer.status).headers(answer.headers).send(answer.body);
  }

  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    scope.all('/api/apps/:appId/functions/*', async (request, reply) => {
      const params = parseInput(InvokeParams, request.params);
      return call(request, reply, params.appId, params['*']);
    });
    scope.all('/api/functions/*', async (request, reply) => {
      const params = parseInput(FetchParams, request.params);
      return call(request, reply, deps.appId, params['*']);
    });
  });
}
