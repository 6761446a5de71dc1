import type { IncomingHttpHeaders } from 'node:http';
import fastifyCors from '@fastify/cors';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { clientAddress, trustedProxies } from '../lib/client-address';
import { capConnectionsPerIp } from '../lib/connection-cap';
import { InvalidInputError } from '../lib/errors';
import { requestIds } from '../lib/request-id';
import { DEFAULT_FRAME_ANCESTORS } from '../lib/content-security-policy';
import { parseJsonInput, unsafeStringReason, unsafeValueReason } from '../lib/safe-input';
import type { SiteBundle } from '../lib/site-bundle';
import { createRealtime, type Realtime } from '../realtime/realtime-hub';
import { registerAdminRoutes } from '../routes/admin';
import { registerAnalyticsRoutes } from '../routes/analytics';
import { registerAppLogsRoutes } from '../routes/app-logs';
import { registerAuthRoutes } from '../routes/auth';
import { entityRooms } from '../services/delivery/entity-delivery';
import { registerProviderSignInRoutes } from '../routes/provider-sign-in';
import { registerBodyDeadline } from '../routes/body-deadline';
import { registerCustomIntegrationsRoutes } from '../routes/custom-integrations';
import { createCallerGuard } from '../routes/caller-guard';
import { coreHandlers } from '../routes/core-handlers';
import { registerEntitiesRoutes } from '../routes/entities';
import { handleError } from '../routes/error-map';
import { registerFilesRoutes } from '../routes/files';
import { registerHealthRoutes } from '../routes/health';
import { notHostedError, refuseOtherApps } from '../routes/hosted-app-only';
import { registerIntegrationsRoutes } from '../routes/integrations';
import { registerMediaRoutes } from '../routes/media';
import { registerFunctionsRoutes } from '../routes/functions';
import { registerNotYetRoutes } from '../routes/not-yet';
import { registerPublicSettingsRoutes } from '../routes/public-settings';
import { registerSiteRoutes } from '../routes/site';
import { registerUsersRoutes } from '../routes/users';
import type { AnalyticsService } from '../services/analytics/analytics-service';
import type { AppLogsService } from '../services/app-logs/app-logs-service';
import { createAppAccess, type AppAccess } from '../services/identity/app-access';
import type { AppsService } from '../services/apps/apps-service';
import type { Accounts } from '../services/auth/accounts';
import type { EntitiesService } from '../services/entities/entities-service';
import type { ExtractionService } from '../services/extraction/extraction-service';
import type { FileService } from '../services/files/file-service';
import type { ImageService } from '../services/images/image-service';
import type { CustomIntegrations } from '../services/integrations/custom/custom-integrations-service';
import {
  createIntegrationBudget,
  type IntegrationBudgetLimits,
} from '../services/integrations/integration-budget';
import type { RateLimiter } from '../services/limits/rate-limiter';
import { createRegexBudget } from '../services/limits/regex-budget';
import type { UsageCounter } from '../services/limits/usage-counter';
import type { SecretsService } from '../services/secrets/secrets-service';
import type { LlmService } from '../services/llm/llm-service';
import type { EmailSender } from '../services/mail/send-email';
import type { FunctionsService } from '../services/functions/functions-service';

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

/** AppDeps is everything the HTTP layer needs; platform/platform.ts builds it. */
export interface AppDeps {
  logger: FastifyBaseLogger;
  appId: string;
  publicUrl: string | undefined;
  /** frameAncestors is the CSP frame-ancestors list of the site's pages (FRAME_ANCESTORS). */
  frameAncestors?: string;
  bundle: SiteBundle;
  /** ownSite is our own site build when SITE_DIST holds another app's (for `/login`); else null. */
  ownSite?: SiteBundle | null;
  /** appName is the hosted app's name (its project's). */
  appName?: string;
  apps: AppsService;
  /** access is the app-access rules the socket handshakes also use (default: built on apps and accounts). */
  access?: AppAccess;
  analytics: AnalyticsService;
  appLogs: AppLogsService;
  images: ImageService;
  /** files is uploads and their storage (Core.UploadFile and friends). */
  files: FileService;
  accounts: Accounts;
  entities: EntitiesService;
  /** secrets is the app secrets store (the admin API sets and lists them; values never go out). */
  secrets: SecretsService;
  /** customIntegrations are the project's `integrations/<slug>.jsonc`, callable through the SDK. */
  customIntegrations: CustomIntegrations;
  /** mail is Core.SendEmail (mail to the app's users through the mailer). */
  mail: EmailSender;
  /** extraction is Core.ExtractDataFromUploadedFile. */
  extraction: ExtractionService;
  /** llm is Core.InvokeLLM and Core.TranscribeAudio (503 without a provider). */
  llm: LlmService;
  /** functions are the app's backend functions (Deno); functionsMaxBodyBytes bounds a call's body. */
  functions: FunctionsService;
  functionsMaxBodyBytes: number;
  isShuttingDown: () => boolean;
  /** realtime is socket.io with its fan-out (the platform passes the REDIS_URL one); default single instance. */
  realtime?: Realtime;
  /** limiter counts integration calls (the platform passes the one shared through Redis with auth). */
  limiter: RateLimiter;
  integrationLimits: IntegrationBudgetLimits;
  /** regexScanCounter counts per-minute time; regexScanMsPerMinute is each caller's `$regex` query time a minute. */
  regexScanCounter: UsageCounter;
  regexScanMsPerMinute: number;
  /** regexScansAtOnce is how many `$regex` requests of all callers run at once (the rest wait their turn). */
  regexScansAtOnce: number;
  /** trustProxy is Fastify's `trustProxy` (TRUST_PROXY): which proxies may set the client IP. */
  trustProxy: boolean | number | string[];
  /** http are the request timeouts and per-IP connection caps (default DEFAULT_HTTP_LIMITS). */
  http?: HttpLimits;
  /** isEntity says whether a realtime room's entity exists (the project's entities and User). */
  isEntity: (entity: string) => boolean;
  /** maxRoomsPerSocket caps the realtime rooms one socket may join. */
  maxRoomsPerSocket?: number;
  /**
   * corsOrigins are the front ends served elsewhere that may call the API with credentials and be sent
   * back to after sign-in or sign-out (CORS_ORIGINS; default none).
   */
  corsOrigins?: readonly string[];
}

/** CORS_MAX_AGE_S is how long a browser may reuse a preflight answer (10 minutes, Chromium's cap is 2 h). */
const CORS_MAX_AGE_S = 600;

/** buildApp wires routes, parsers, error handling and socket.io into a Fastify instance, without listening. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
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

  const { accessTokens } = deps.accounts;
  // One caller guard: every route and the socket handshake resolve app, caller and visibility through it.
  const access = deps.access ?? createAppAccess({ apps: deps.apps, accessTokens });
  const guard = createCallerGuard({ apps: deps.apps, access });

  const realtime = deps.realtime ?? createRealtime();
  // Each socket's identity comes from its handshake token (invalid or disabled: anonymous); a private
  // app admits only approved users and the service role to its rooms.
  realtime.attach(app.server, {
    identify: async (appId, token) => {
      // Another app's socket is refused at the handshake, as its HTTP routes are (404).
      // (A handshake naming no app joins nothing, as before: rooms are checked against its app.)
      if (appId !== '' && appId !== deps.appId) throw notHostedError(appId);
      const { caller, admitted } = await access.socketAccess(appId, token);
      return { identity: caller, admitted };
    },
    // The room families of the capabilities that publish: entities (agents will add theirs).
    rooms: [entityRooms(deps.isEntity)],
    ...(deps.maxRoomsPerSocket ? { maxRooms: deps.maxRoomsPerSocket } : {}),
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

  registerHealthRoutes(app, deps.isShuttingDown);
  // One file per URL prefix (server/README.md, "Where things live").
  registerPublicSettingsRoutes(app, { apps: deps.apps, guard });
  registerAuthRoutes(app, {
    ...deps.accounts,
    guard,
    publicUrl: deps.publicUrl,
    returnOrigins: corsOrigins,
  });
  registerProviderSignInRoutes(app, { publicUrl: deps.publicUrl, returnOrigins: corsOrigins });
  registerUsersRoutes(app, { guard, users: deps.accounts.users, publicUrl: deps.publicUrl });
  registerAdminRoutes(app, {
    apps: deps.apps,
    users: deps.accounts.users,
    guard,
    hub: realtime.hub,
    secrets: deps.secrets,
    llm: deps.llm,
  });
  registerEntitiesRoutes(app, {
    guard,
    entities: deps.entities,
    users: deps.accounts.users,
    regexBudget: createRegexBudget(
      deps.regexScanCounter,
      deps.regexScanMsPerMinute,
      undefined,
      deps.regexScansAtOnce,
    ),
  });
  registerAnalyticsRoutes(app, { guard, analytics: deps.analytics });
  registerAppLogsRoutes(app, { guard, appLogs: deps.appLogs });
  const budget = createIntegrationBudget(deps.limiter, deps.integrationLimits);
  registerIntegrationsRoutes(app, {
    guard,
    apps: deps.apps,
    budget,
    images: deps.images,
    publicUrl: deps.publicUrl,
    handlers: coreHandlers({ mail: deps.mail, extraction: deps.extraction, llm: deps.llm }),
  });
  registerCustomIntegrationsRoutes(app, { guard, apps: deps.apps, budget, custom: deps.customIntegrations });
  await registerFilesRoutes(app, { guard, budget, files: deps.files, publicUrl: deps.publicUrl });
  await registerFunctionsRoutes(app, {
    guard,
    appId: deps.appId,
    functions: deps.functions,
    maxBodyBytes: deps.functionsMaxBodyBytes,
  });
  registerNotYetRoutes(app);
  registerMediaRoutes(app, deps.images);
  await registerSiteRoutes(app, {
    bundle: deps.bundle,
    ownSite: deps.ownSite ?? null,
    returnOrigins: corsOrigins,
    ...(deps.appName !== undefined ? { appName: deps.appName } : {}),
    appId: deps.appId,
    frameAncestors: deps.frameAncestors ?? DEFAULT_FRAME_ANCESTORS,
    apps: deps.apps,
    images: deps.images,
  });
  return app;
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
