// The composition root: every service is built here, once, from the validated configuration. main.ts
// (the server) and cli.ts (the operator CLI) both build through it, so wiring is written in one place.
// Over 300 lines on purpose: each capability is one small build* part below, and keeping them together is
// what lets a newcomer see every service and what it is given.
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { SiteConfig } from '../../../site/src/config/site-config-schema';
import { buildApp } from './app';
import { buildFilesPart } from './files-part';
import { buildLlmService } from './llm-part';
import { reportSiteBundle } from './startup-report';
import type { ServerConfig } from '../config/server-env';
import { createPublicFetch, type PublicFetch } from '../lib/public-fetch';
import { createRateLimitRedis } from '../lib/rate-limit-redis';
import { loadSecrets, type ServerSecrets } from '../lib/secrets-file';
import { loadSiteBundle, type SiteBundle } from '../lib/site-bundle';
import { createRealtime, type Realtime, type RealtimeHub } from '../realtime/realtime-hub';
import { createAnalyticsService } from '../services/analytics/analytics-service';
import { createAppLogsService } from '../services/app-logs/app-logs-service';
import { createAppAccess } from '../services/identity/app-access';
import { createAppsService, type AppsService } from '../services/apps/apps-service';
import { createAccounts, type Accounts } from '../services/auth/accounts';
import { startEntityDelivery } from '../services/delivery/entity-delivery';
import { cacheAcrossInstances } from '../services/entities/cached-records-store';
import { createEntitiesService } from '../services/entities/entities-service';
import { createEntityEvents, type EntityEvents } from '../services/entities/entity-events';
import { createExtractionService } from '../services/extraction/extraction-service';
import { createFileReader, type FileReader } from '../services/files/file-reader';
import { buildFunctions, listenForFunctions } from './functions-part';
import { startAutomations } from './automations-part';
import type { EntityDef, Project } from '../project/project-loader';
import type { FunctionsService } from '../services/functions/functions-service';
import { createReadCache } from '../services/entities/read-cache';
import { USER_ENTITY } from '../project/user-entity';
import { createBuiltinImageProvider, type ImageProvider } from '../services/images/image-provider';
import { createImageService, type ImageService } from '../services/images/image-service';
import { createOpenAiImageProvider } from '../services/images/openai-image-provider';
import { createUsageCounter } from '../services/limits/usage-counter';
import { createRateLimiter, type RateLimiter } from '../services/limits/rate-limiter';
import { createMailer, type Mailer } from '../services/mail/mailer';
import { createSecretsService, type SecretsService } from '../services/secrets/secrets-service';
import { createCustomIntegrations } from '../services/integrations/custom/custom-integrations-service';
import { createEmailSender } from '../services/mail/send-email';
import { createAnalyticsStore } from '../store/analytics-store';
import { createAppLogsStore } from '../store/app-logs-store';
import { createFunctionLogsStore } from '../store/function-logs-store';
import { createAppsStore } from '../store/apps-store';
import { createAuthCodesStore } from '../store/auth-codes-store';
import type { Database } from '../store/database';
import { createEntityRecordsStore } from '../store/entity-records-store';
import { createImagesStore } from '../store/images-store';
import { runMigrations } from '../store/migrations';
import { openDatabase, type OpenedDatabase } from '../store/open-database';
import { createSecretsStore } from '../store/secrets-store';
import { createUsersStore } from '../store/users-store';

/** READ_CACHE_TTL_MS bounds how long a cached entity read lives even without writes (lost invalidations). */
const READ_CACHE_TTL_MS = 30_000;

/** PlatformDatabase is the opened database, migrated, with the migrations this start applied. */
export interface PlatformDatabase extends OpenedDatabase {
  applied: string[];
}

/** openPlatformDatabase opens the configured database (PostgreSQL or PGlite) and migrates it. */
export async function openPlatformDatabase(config: ServerConfig, logger?: Logger): Promise<PlatformDatabase> {
  const opened = await openDatabase(
    config,
    logger ? (error) => logger.warn({ err: error }, 'database connection error') : undefined,
    logger,
  );
  try {
    const applied = await runMigrations(opened.db);
    if (applied.length > 0) logger?.info({ migrations: applied }, 'applied database migrations');
    return { ...opened, applied };
  } catch (error) {
    await opened.db.close();
    throw error;
  }
}

/** AccountsPart is what the server and the CLI's direct mode share: the app, its mail and its accounts. */
export interface AccountsPart {
  apps: AppsService;
  mailer: Mailer;
  accounts: Accounts;
}

/**
 * buildAccountsPart builds apps, mailer and accounts on db, with the app row ensured. The server adds the
 * project's User entity, entity events and the shared limiter; the CLI runs without them.
 */
export async function buildAccountsPart(input: {
  config: ServerConfig;
  db: Database;
  secrets: ServerSecrets;
  log: Logger;
  userEntity?: EntityDef | undefined;
  events?: EntityEvents | undefined;
  limiter?: RateLimiter | undefined;
  /** hub tells other instances which users changed (the CLI has none: cached rows expire within 500 ms). */
  hub?: RealtimeHub | undefined;
  /** appResetPage: mailed reset and invite links go to the hosted app's own page (the CLI mails none). */
  appResetPage?: boolean | undefined;
}): Promise<AccountsPart> {
  const { config, db, log } = input;
  const apps = createAppsService(createAppsStore(db));
  await apps.ensureApp(config.APP_ID);
  const mailer = createMailer({
    smtpUrl: config.SMTP_URL,
    from: config.MAIL_FROM,
    outboxDir: join(config.DATA_DIR, 'outbox'),
    log,
  });
  const accounts = await createAccounts({
    config,
    secrets: input.secrets,
    stores: { users: createUsersStore(db), codes: createAuthCodesStore(db) },
    apps,
    mailer,
    log,
    userEntity: input.userEntity,
    events: input.events,
    limiter: input.limiter,
    hub: input.hub,
    appResetPage: input.appResetPage,
  });
  return { apps, mailer, accounts };
}

/**
 * buildSecretsService is the app secrets store on db with the configured key; the server passes its hub so
 * every instance hears changes, the CLI's direct mode has none.
 */
export function buildSecretsService(
  db: Database,
  secrets: ServerSecrets,
  hub?: RealtimeHub,
  logger?: Logger,
): SecretsService {
  return createSecretsService({
    store: createSecretsStore(db),
    key: secrets.secretsKey,
    keySource: secrets.secretsKeySource === 'SECRETS_KEY' ? 'SECRETS_KEY' : 'DATA_DIR/secrets.json',
    hub,
    onListenerError: (error) => logger?.error({ err: error }, 'secrets change listener failed'),
  });
}

function createImageProvider(config: ServerConfig): ImageProvider {
  if (!config.IMAGE_PROVIDER) return createBuiltinImageProvider();
  return createOpenAiImageProvider({
    endpoint: config.IMAGE_PROVIDER,
    apiKey: config.IMAGE_PROVIDER_KEY,
    model: config.IMAGE_MODEL,
    timeoutMs: config.IMAGE_PROVIDER_TIMEOUT_MS,
  });
}

/** readCacheOn says whether entity reads are cached: READ_CACHE=on, or auto on a single instance. */
function readCacheOn(config: ServerConfig): boolean {
  return config.READ_CACHE === 'on' || (config.READ_CACHE === 'auto' && !config.REDIS_URL);
}

/** PlatformInput is what building the platform takes: the validated configuration and the opened database. */
export interface PlatformInput {
  config: ServerConfig;
  /** site is the site config the page was prerendered from, to tell a stale build (absent: not checked). */
  site?: SiteConfig;
  project: Project;
  logger: Logger;
  database: PlatformDatabase;
  isShuttingDown: () => boolean;
}

/** Platform is the built server, not yet listening, with what the start-up report names. */
export interface Platform {
  app: FastifyInstance;
  config: ServerConfig;
  project: Project;
  database: PlatformDatabase;
  apps: AppsService;
  mailer: Mailer;
  images: ImageService;
  realtime: Realtime;
  bundle: SiteBundle;
  /** seeded is how many seed records this start stored, per entity. */
  seeded: Record<string, number>;
  /** readCache says whether entity reads are cached on this instance. */
  readCache: boolean;
  /** secrets is the app secrets store (functions' env; custom integrations' auth headers). */
  secrets: SecretsService;
  /** storedSecrets is how many secrets the app had at start, and where their key came from. */
  secretsReport: { stored: number; keySource: string };
  /** outbound is the guarded fetch for caller-chosen URLs and the file reader built on it (integrations). */
  outbound: { fetchPublic: PublicFetch; readFileUrl: FileReader };
  /** functions are the app's backend functions (the start-up report names the runtime). */
  functions: FunctionsService;
  /** close stops the app (sockets first) and then the database. */
  close(): Promise<void>;
}

/** buildPlatform builds every service once and the Fastify app on them, without listening. */
export async function buildPlatform(input: PlatformInput): Promise<Platform> {
  const { config, project, logger, database } = input;
  const { db } = database;
  const realtime = createRealtime({
    redisUrl: config.REDIS_URL,
    redisPrefix: config.REDIS_PREFIX,
    log: logger,
  });
  const secrets = await loadSecrets(config.DATA_DIR, {
    jwtSecret: config.JWT_SECRET,
    serviceToken: config.SERVICE_TOKEN,
    secretsKey: config.SECRETS_KEY,
  });
  const appSecrets = buildSecretsService(db, secrets, realtime.hub, logger);
  // A key that cannot open the stored secrets stops the start, rather than failing functions later.
  const storedSecrets = await appSecrets.verifyKey(config.APP_ID);
  // Said on every instance (the change arrives through the hub): names only, never a value.
  appSecrets.subscribe((change) => logger.info(change, 'app secret changed'));
  // One limiter for auth and integrations: counters in Redis (shared by every instance) with REDIS_URL.
  const limiterRedis = config.REDIS_URL ? createRateLimitRedis(config.REDIS_URL, logger) : null;
  const limiter = createRateLimiter({
    redis: limiterRedis?.client,
    prefix: config.REDIS_PREFIX,
    maxKeys: config.RATE_LIMIT_MAX_KEYS,
    onRedisError: limiterRedis?.reportFallback,
  });
  const entityEvents = createEntityEvents((error) =>
    logger.error({ err: error }, 'entity event subscriber failed'),
  );
  // Read first: the hosted app's own reset page decides where mailed links go.
  const bundle = await loadSiteBundle(config.SITE_DIST);
  const { apps, mailer, accounts } = await buildAccountsPart({
    config,
    db,
    secrets,
    log: logger,
    userEntity: project.entities.get(USER_ENTITY),
    events: entityEvents,
    limiter,
    hub: realtime.hub,
    appResetPage: bundle.authPages.resetPassword,
  });
  if (config.APP_VISIBILITY || config.APP_SELF_SIGNUP) {
    await apps.updateSettings(config.APP_ID, {
      visibility: config.APP_VISIBILITY,
      selfSignup: config.APP_SELF_SIGNUP === undefined ? undefined : config.APP_SELF_SIGNUP === 'true',
    });
  }
  const analytics = createAnalyticsService(apps, createAnalyticsStore(db));
  const images = createImageService(createImagesStore(db), createImageProvider(config));
  const appLogs = createAppLogsService({
    store: createAppLogsStore(db),
    functionStore: createFunctionLogsStore(db),
    limiter,
    visitorSecret: secrets.jwtSecret,
    retentionDays: config.APP_LOG_RETENTION_DAYS,
    ratePerMinute: config.APP_LOG_RATE_LIMIT_PER_MINUTE,
    flushMs: config.APP_LOG_FLUSH_MS,
    bufferMax: config.APP_LOG_BUFFER_MAX,
    log: logger,
  });
  // Daily shares (upload bytes, LLM tokens) are counted where the limiter counts: Redis when configured.
  const usage = createUsageCounter({
    redis: limiterRedis?.client,
    prefix: config.REDIS_PREFIX,
    maxKeys: config.RATE_LIMIT_MAX_KEYS,
    onRedisError: limiterRedis?.reportFallback,
  });
  const filesPart = await buildFilesPart({
    config,
    db,
    apps,
    usage,
    signingSecret: secrets.jwtSecret,
    log: logger,
  });
  const { files } = filesPart;
  const fetchPublic = createPublicFetch({ allowedPrivateHosts: config.OUTBOUND_PRIVATE_HOSTS });
  const readFileUrl = createFileReader({ files, fetchPublic });
  const mail = createEmailSender({
    mailer,
    users: createUsersStore(db),
    limiter,
    limits: {
      perCaller: config.MAIL_RATE_LIMIT_PER_CALLER,
      perIp: config.MAIL_RATE_LIMIT_PER_IP,
      perApp: config.MAIL_RATE_LIMIT_PER_APP,
      windowSeconds: config.MAIL_RATE_LIMIT_WINDOW_SECONDS,
    },
  });
  const llm = buildLlmService({
    config,
    db,
    usage,
    readFileUrl,
    visibilityOf: async (appId) => (await apps.findAccessSettings(appId)).visibility,
    logger,
  });
  // Documents beyond one text field go to the LLM when a provider is set.
  const extraction = createExtractionService({
    structured: llm.configured
      ? (text, schema, call) => llm.structured(call.appId, call.caller, text, schema, call.ip)
      : undefined,
    readFileUrl,
    limits: {
      maxBytes: config.EXTRACT_MAX_MB * 1024 * 1024,
      maxRows: config.EXTRACT_MAX_ROWS,
      fetchTimeoutMs: config.EXTRACT_FETCH_TIMEOUT_MS,
    },
  });
  const customIntegrations = createCustomIntegrations({
    integrations: project.customIntegrations ?? new Map(),
    secrets: appSecrets,
    fetchPublic,
    // Only when the secrets store has none by that name (documented in the README).
    fallbackSecret: (name) => config.INTEGRATION_SECRETS[name],
  });
  const recordsStore = createEntityRecordsStore(db);
  const readCache = readCacheOn(config);
  const entities = createEntitiesService({
    project,
    store: readCache
      ? cacheAcrossInstances(
          recordsStore,
          createReadCache({
            maxBytes: config.READ_CACHE_MB * 1024 * 1024,
            ttlMs: READ_CACHE_TTL_MS,
            trusted: realtime.peersInSync,
          }),
          realtime.hub,
        )
      : recordsStore,
    events: entityEvents,
    users: accounts.userWrites,
  });
  const seeded = await entities.seed(config.APP_ID);
  // One app-access for the HTTP guard and the socket handshakes: committed writes go to subscribed
  // sockets, each filtered by its reader's read rules, on every instance.
  const access = createAppAccess({ apps, accessTokens: accounts.accessTokens });
  startEntityDelivery({
    project,
    events: entityEvents,
    hub: realtime.hub,
    identify: access.socketAccess,
    admitsAnonymous: access.admitsAnonymous,
    log: logger,
  });

  reportSiteBundle(bundle, config, input.site, logger);
  // Hosting another app's build, `/login` is still our own site's sign-in page.
  const ownSite =
    bundle.kind === 'app' && config.OWN_SITE_DIST !== config.SITE_DIST
      ? await loadSiteBundle(config.OWN_SITE_DIST)
      : null;

  const functions = await buildFunctions({
    config,
    project,
    secrets: appSecrets,
    mintCallToken: accounts.accessTokens.mintCallToken,
    log: logger,
    recordCall: (call) => appLogs.recordFunctionCall(config.APP_ID, call),
  });

  const app = await buildApp({
    logger,
    appId: config.APP_ID,
    publicUrl: config.PUBLIC_URL,
    frameAncestors: config.FRAME_ANCESTORS,
    bundle,
    ownSite,
    appName: project.name,
    apps,
    access,
    analytics,
    appLogs,
    images,
    files,
    accounts,
    entities,
    secrets: appSecrets,
    customIntegrations,
    mail,
    extraction,
    llm,
    functions: functions.service,
    functionsMaxBodyBytes: config.FUNCTION_MAX_BODY_MB * 1024 * 1024,
    isShuttingDown: input.isShuttingDown,
    realtime,
    limiter,
    regexScanCounter: createUsageCounter({
      windowMs: 60_000,
      redis: limiterRedis?.client,
      prefix: config.REDIS_PREFIX,
      maxKeys: config.RATE_LIMIT_MAX_KEYS,
      onRedisError: limiterRedis?.reportFallback,
    }),
    regexScanMsPerMinute: config.ENTITY_REGEX_SCAN_MS_PER_MINUTE,
    // PGlite runs one statement at a time anyway; on PostgreSQL regex scans hold at most half the pool.
    regexScansAtOnce: config.DATABASE_URL ? Math.max(1, Math.floor(config.DATABASE_POOL_SIZE / 2)) : 1,
    integrationLimits: {
      perIpPerMinute: config.INTEGRATION_RATE_LIMIT_PER_MINUTE,
      perUserPerMinute: config.INTEGRATION_RATE_LIMIT_PER_USER_PER_MINUTE,
    },
    trustProxy: config.TRUST_PROXY,
    http: {
      requestTimeoutMs: config.REQUEST_TIMEOUT_MS,
      minBytesPerSecond: config.REQUEST_MIN_BYTES_PER_SECOND,
      headersTimeoutMs: config.HTTP_HEADERS_TIMEOUT_MS,
      keepAliveTimeoutMs: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      maxConnectionsPerIp: config.MAX_CONNECTIONS_PER_IP,
      realtimeMaxSocketsPerIp: config.REALTIME_MAX_SOCKETS_PER_IP,
      realtimeHandshakesPerMinute: config.REALTIME_HANDSHAKES_PER_IP_PER_MINUTE,
    },
    isEntity: (entity) => entity === USER_ENTITY || project.entities.has(entity),
    maxRoomsPerSocket: config.REALTIME_MAX_ROOMS_PER_SOCKET,
    corsOrigins: config.CORS_ORIGINS,
  });
  app.addHook('onClose', async () => limiterRedis?.close());
  listenForFunctions(app, functions, config.FUNCTIONS_API_HOST, config.FUNCTIONS_MAX_CONNECTIONS);
  await startAutomations({
    app,
    appId: config.APP_ID,
    db,
    functions: functions.service,
    events: entityEvents,
    timeoutMs: config.FUNCTION_TIMEOUT_S * 1000,
    claimGraceMs: config.AUTOMATION_CLAIM_GRACE_S * 1000,
    limits: {
      concurrency: config.AUTOMATION_CONCURRENCY,
      maxQueuedPerAutomation: config.AUTOMATION_MAX_QUEUED,
      maxQueuedPerSource: config.AUTOMATION_MAX_QUEUED_PER_SOURCE,
    },
    log: logger,
  });
  // Buffered page views are written once requests have drained, before the database closes.
  // Calls that just ended are recorded first (their output's grace period), then the buffer is written.
  app.addHook('onClose', async () => {
    await functions.service.settled();
    await appLogs.close();
  });
  // LLM usage rows still queued are written the same way.
  app.addHook('onClose', () => llm.close());
  app.addHook('onClose', () => filesPart.stop());
  appLogs.startPruning();

  return {
    app,
    config,
    project,
    database,
    apps,
    mailer,
    images,
    realtime,
    bundle,
    seeded,
    readCache,
    secrets: appSecrets,
    secretsReport: { stored: storedSecrets, keySource: secrets.secretsKeySource },
    outbound: { fetchPublic, readFileUrl },
    functions: functions.service,
    async close() {
      // A request still running at close (a query until its deadline) ends on a keep-alive connection
      // that the client keeps open: close connections as they become idle, or they hold the close open.
      const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
      try {
        await app.close();
      } finally {
        clearInterval(sweep);
      }
      await db.close();
    },
  };
}
