// Backend functions over HTTP: `functions.invoke` (`/api/apps/{app}/functions/{name}`) and `functions.fetch`
// (`/api/functions/{name}/{rest}`, no app id: the app this server hosts). Bodies are streamed to the function
// unparsed (JSON, multipart, anything; bounded), and its answer is streamed back as it comes (a PDF).
import { pipeline, Transform, type TransformCallback } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { NotFoundError } from '../lib/errors';
import { parseInput } from '../lib/validation';
import {
  FunctionCrashError,
  FunctionLoadError,
  FunctionsBusyError,
  FunctionsUnavailableError,
  FunctionTimeoutError,
} from '../services/functions/function-errors';
import type { FunctionsService } from '../services/functions/functions-service';
import type { CallerGuard } from './caller-guard';

const InvokeParams = z.object({ appId: z.string().min(1).max(64), '*': z.string().max(2000) });
const FetchParams = z.object({ '*': z.string().max(2000) });

/** byteLimit passes a body through, failing it once it grows past max bytes. */
function byteLimit(max: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      seen += chunk.length;
      if (seen > max) callback(Object.assign(new Error('body too large'), { statusCode: 413 }));
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

async function isAdmin(guard: CallerGuard, request: FastifyRequest, appId: string): Promise<boolean> {
  const principal = await guard.principal(request, appId).catch(() => null);
  return principal?.kind === 'user' && principal.user.role === 'admin';
}

/** registerFunctionsRoutes serves both function paths in a scope whose bodies stay raw streams. */
export async function registerFunctionsRoutes(app: FastifyInstance, deps: FunctionsRouteDeps): Promise<void> {
  const { guard, functions } = deps;

  async function call(request: FastifyRequest, reply: FastifyReply, appId: string, path: string) {
    // The app must exist; who the caller is, the function decides (it receives Authorization unchanged).
    await guard.principal(request, appId).catch((error: unknown) => {
      if (error instanceof NotFoundError) throw error;
    });
    // The id function logs keep this call under (`fetchLogs` `request_id`).
    reply.header('x-request-id', request.id);
    const found = functions.find(path);
    if (!found) throw new NotFoundError(`Function ${path.split('/')[0]?.slice(0, 80) ?? ''} not found`);
    const length = Number(request.headers['content-length'] ?? 0);
    if (length > deps.maxBodyBytes) {
      return reply.code(413).send({ message: `The request body is larger than ${deps.maxBodyBytes} bytes` });
    }
    const raw = request.body as NodeJS.ReadableStream | undefined;
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    try {
      const answer = await functions.invoke(found.def, {
        method: request.method,
        path: pathForFunction(found.rest, query),
        headers: request.headers,
        requestId: request.id,
        body: raw && typeof raw.pipe === 'function' ? limitedBody(raw, deps.maxBodyBytes) : null,
      });
      return reply.code(answer.status).headers(answer.headers).send(answer.body);
    } catch (error) {
      if (error instanceof FunctionsUnavailableError) return reply.code(503).send({ message: error.message });
      if (error instanceof FunctionsBusyError) {
        return reply.code(503).header('retry-after', '1').send({ message: error.message });
      }
      if (error instanceof FunctionTimeoutError) return reply.code(504).send({ message: error.message });
      if ((error as { code?: unknown }).code === 'ERR_STREAM_PREMATURE_CLOSE') {
        return reply.code(400).send({ message: 'The request body ended before it was complete' });
      }
      if (error instanceof FunctionCrashError) return reply.code(502).send({ message: error.message });
      if (error instanceof FunctionLoadError) {
        // The compile error is for the app's admins (and the log); others learn only that it failed.
        const detail = (await isAdmin(guard, request, appId)) ? { detail: error.detail } : {};
        return reply.code(502).send({ message: `Function ${found.def.name} failed to load`, ...detail });
      }
      throw error;
    }
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
