import type { IncomingHttpHeaders } from 'node:http';
import fastifyCors from '@fastify/cors';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { clientAddress, trustedProxies } from '../lib/client-address';
import { capConnectionsPerIp } from '../lib/connection-cap';
import { InvalidInputError } from '../lib/errors';
import { requestIds } from '../lib/request-id';
import { parseJsonInput, unsafeStringReason, unsafeValueReason } from '../lib/safe-input';
import { createRealtime, type Realtime } from '../realtime/realtime-hub';
import { createCallerGuard } from '../routes/caller-guard';
import { handleError } from '../routes/error-map';
import { registerBodyDeadline } from '../routes/body-deadline';
import { registerHealthRoutes } from '../routes/health';
import { notHostedError, refuseOtherApps } from '../routes/hosted-app-only';
import type { AppsService } from '../services/apps/apps-service';
import type { AppAccess } from '../services/identity/app-access';
import {
  createIntegrationBudget,
  type IntegrationBudgetLimits,
} from '../services/integrations/integration-budget';
import type { RateLimiter } from '../services/limits/rate-limiter';
import type { CoreHandler } from '../routes/core-handlers';
import type { Edge, Part } from './parts/part';
import { realtimeCapacity } from '../lib/open-files-limit';

/** BODY_LIMIT is the largest request body accepted (1 MB); larger ones get 413. */
export const BODY_LIMIT = 1024 * 1024;

/** HttpLimits are the edge's timeouts and per-IP caps (config/http-env.ts). */
export interface HttpLimits {
  requestTimeoutMs: number;
  minBytesPerSecond: number;
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
  maxConnectionsPerIp: number;
  realtimeMaxSocketsPerIp: number;
  realtimeHandshakesPerMinute: number;
  /** realtimeMaxSockets caps this instance's sockets (REALTIME_MAX_SOCKETS); unset, the open-files limit decides. */
  realtimeMaxSockets?: number;
}

/** DEFAULT_HTTP_LIMITS are the environment's defaults, for apps built without a configuration. */
export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  requestTimeoutMs: 30_000,
  minBytesPerSecond: 32 * 1024,
  headersTimeoutMs: 10_000,
  keepAliveTimeoutMs: 72_000,
  maxConnectionsPerIp: 256,
  realtimeMaxSocketsPerIp: 100,
  realtimeHandshakesPerMinute: 120,
};

/** HEADER_CHECK_INTERVAL_MS is how often Node looks for connections past their headers timeout. */
const HEADER_CHECK_INTERVAL_MS = 1_000;

/**
 * EdgeOptions are what the HTTP edge itself needs: parsers, limits, the error map, CORS, the caller guard
 * and realtime's handshakes. Everything else comes from the parts (platform/parts/).
 */
export interface EdgeOptions {
  logger: FastifyBaseLogger;
  appId: string;
  publicUrl: string | undefined;
  apps: AppsService;
  /** access is who may reach the app's data: the HTTP guard and the socket handshakes both ask it. */
  access: AppAccess;
  isShuttingDown: () => boolean;
  /** realtime is socket.io with its fan-out (the platform passes the REDIS_URL one); default single instance. */
  realtime?: Realtime;
  /** limiter counts integration calls and realtime handshakes (shared through Redis with REDIS_URL). */
  limiter: RateLimiter;
  integrationLimits: IntegrationBudgetLimits;
  /** trustProxy is Fastify's `trustProxy` (TRUST_PROXY): which proxies may set the client IP. */
  trustProxy: boolean | number | string[];
  /** http are the request timeouts and per-IP connection caps (default DEFAULT_HTTP_LIMITS). */
  http?: HttpLimits;
  /** maxRoomsPerSocket caps the realtime rooms one socket may join. */
  maxRoomsPerSocket?: number;
  /** afterParts runs on close once every part has closed (the shared Redis connection ends there). */
  afterParts?: () => Promise<void>;
  /**
   * corsOrigins are the front ends served elsewhere that may call the API with credentials and be sent
   * back to after sign-in or sign-out (CORS_ORIGINS; default none).
   */
  corsOrigins?: readonly string[];
}

/** CORS_MAX_AGE_S is how long a browser may reuse a preflight answer (10 minutes, Chromium's cap is 2 h). */
const CORS_MAX_AGE_S = 600;

/**
 * buildApp installs the edge (parsers, limits, the error map, CORS, the guard, realtime) and then each
 * part's routes, in list order, without listening. On close, parts close in reverse order.
 */
export async function buildApp(deps: EdgeOptions, parts: readonly Part[]): Promise<FastifyInstance> {
  const limits = deps.http ?? DEFAULT_HTTP_LIMITS;
  const app = Fastify({
    loggerInstance: deps.logger,
    // Unique across restarts and instances: function logs keep it (and answer it as x-request-id).
    genReqId: requestIds(),
    bodyLimit: BODY_LIMIT,
    trustProxy: trustProxyOption(deps.trustProxy),
    frameworkErrors: handleError,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // Node checks the headers deadline every connectionsCheckingInterval (30 s by default).
    http: {
      // Bodies have their own deadline (registerBodyDeadline); 0 also lets any headers timeout be set.
      requestTimeout: 0,
      headersTimeout: limits.headersTimeoutMs,
      connectionsCheckingInterval: Math.min(HEADER_CHECK_INTERVAL_MS, limits.headersTimeoutMs),
    },
  });
  const isTrusted = trustedProxies(deps.trustProxy);
  capConnectionsPerIp(app.server, limits.maxConnectionsPerIp, isTrusted);
  registerBodyDeadline(app, {
    graceMs: limits.requestTimeoutMs,
    minBytesPerSecond: limits.minBytesPerSecond,
  });
  registerBodyParsers(app);
  refuseOtherApps(app, deps.appId);
  refuseUnsafeStrings(app);
  app.setErrorHandler(handleError);
  const corsOrigins = deps.corsOrigins ?? [];
  if (corsOrigins.length > 0) {
    const listed = new Set(corsOrigins);
    // A listed origin gets itself back with credentials; any other gets no CORS header at all.
    await app.register(fastifyCors, {
      origin: (origin, callback) =>
        callback(null, origin !== undefined && listed.has(origin) ? origin : false),
      credentials: true,
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      maxAge: CORS_MAX_AGE_S,
    });
  }

  // One caller guard: every route and the socket handshake resolve app, caller and visibility through it.
  const guard = createCallerGuard({ apps: deps.apps, access: deps.access });

  const realtime = deps.realtime ?? createRealtime();
  // Each socket's identity comes from its handshake token (invalid or disabled: anonymous); a private
  // app admits only approved users and the service role to its rooms.
  realtime.attach(app.server, {
    identify: async (appId, token) => {
      // Another app's socket is refused at the handshake, as its HTTP routes are (404).
      // (A handshake naming no app joins nothing, as before: rooms are checked against its app.)
      if (appId !== '' && appId !== deps.appId) throw notHostedError(appId);
      const { caller, admitted } = await deps.access.socketAccess(appId, token);
      return { identity: caller, admitted };
    },
    // The room families of the parts that publish (entities; agents will add theirs).
    rooms: parts.flatMap((part) => part.rooms ?? []),
    ...(deps.maxRoomsPerSocket ? { maxRooms: deps.maxRoomsPerSocket } : {}),
    maxSockets: limits.realtimeMaxSockets ?? realtimeCapacity(undefined).maxSockets,
    handshakes: {
      maxSocketsPerIp: limits.realtimeMaxSocketsPerIp,
      clientIp: (request) =>
        clientAddress(request.socket.remoteAddress ?? '', forwardedFor(request.headers), isTrusted),
      mayOpen: async (ip) =>
        (await deps.limiter.hit(`realtime-handshake:${ip}`, limits.realtimeHandshakesPerMinute, 60_000))
          .allowed,
    },
  });
  // Sockets go first so the HTTP server's close is not held open by WebSocket connections; the Redis
  // connections close within a bounded time even while Redis is down.
  app.addHook('preClose', () => realtime.close());

  // Fastify runs onClose hooks last-added first: this one, added before any part's, runs after theirs.
  app.addHook('onClose', async () => {
    for (const part of [...parts].reverse()) await closeTimed(part, app.log);
    await deps.afterParts?.();
  });
  registerHealthRoutes(app, deps.isShuttingDown);
  const edge: Edge = {
    guard,
    appId: deps.appId,
    publicUrl: deps.publicUrl,
    returnOrigins: corsOrigins,
    budget: createIntegrationBudget(deps.limiter, deps.integrationLimits),
    coreHandlers: coreHandlersOf(parts),
  };
  // One file per URL prefix under routes/ (server/README.md, "Where things live"), registered by its part.
  for (const part of parts) await part.routes?.(app, edge);
  return app;
}

/** coreHandlersOf merges the parts' Core integrations; two parts serving one name is a wiring mistake. */
function coreHandlersOf(parts: readonly Part[]): Record<string, CoreHandler> {
  const handlers: Record<string, CoreHandler> = {};
  for (const part of parts) {
    for (const [name, handler] of Object.entries(part.coreHandlers ?? {})) {
      if (Object.hasOwn(handlers, name))
        throw new Error(`Core.${name} is served by two parts (${part.name})`);
      handlers[name] = handler;
    }
  }
  return handlers;
}

/**
 * trustProxyOption is TRUST_PROXY as Fastify takes it: a hop count becomes "trust the nearest n hops"
 * (Fastify's typings only take a function for that).
 */
function trustProxyOption(trust: boolean | number | string[]) {
  if (typeof trust !== 'number') return trust;
  return (_address: string, hop: number) => hop < trust;
}

function forwardedFor(headers: IncomingHttpHeaders): string | undefined {
  const value = headers['x-forwarded-for'];
  return Array.isArray(value) ? value.join(',') : value;
}

function registerBodyParsers(app: FastifyInstance): void {
  // The SDK sends `Content-Type: application/json` with an empty body for no-argument calls: that must
  // reach validation as "no body", not fail in the parser.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, text, done) => {
    const source = String(text);
    if (source.trim() === '') return done(null, undefined);
    try {
      done(null, parseJsonInput(source, 'The request body'));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  // Any other type arrives as text, so validation (not a 415) tells the caller what the route expects.
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, text, done) => {
    const reason = unsafeStringReason(String(text));
    if (reason) return done(new InvalidInputError(`The request body ${reason}`), undefined);
    done(null, String(text));
  });
}

// Strings that no store can hold (NUL, lone surrogates) are refused at the edge, whatever the route.
function refuseUnsafeStrings(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (request.is404) return;
    const reason = unsafeValueReason(request.params) ?? unsafeValueReason(request.query);
    if (reason) throw new InvalidInputError(`The request URL ${reason}`);
  });
}

/** SLOW_PART_CLOSE_MS is when a part's close is logged: a slow shutdown then names the part that held it. */
const SLOW_PART_CLOSE_MS = 1_000;

async function closeTimed(part: Part, log: FastifyBaseLogger): Promise<void> {
  if (!part.close) return;
  const started = Date.now();
  await part.close();
  const ms = Date.now() - started;
  if (ms >= SLOW_PART_CLOSE_MS) log.warn({ part: part.name, ms }, 'part closed slowly');
}
