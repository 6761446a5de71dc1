// Entry point: read configuration, open the store, serve. Every failure before listening exits non-zero
// with a message that names what to fix.
import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { pino, type Logger } from 'pino';
import {
  loadSiteConfig,
  siteConfigWarnings,
  type SiteConfig,
} from '../../site/src/config/site-config-schema';
import { buildApp } from './app';
import { parseServerEnv, type ServerConfig } from './config/server-env';
import { createRateLimiter } from './services/limits/rate-limiter';
import { createRateLimitRedis } from './lib/rate-limit-redis';
import { loadSecrets } from './lib/secrets-file';
import { removeRuntimeInfo, writeRuntimeInfo } from './lib/runtime-file';
import { loadSiteBundle } from './lib/site-bundle';
import { createRealtime } from './realtime/realtime-hub';
import { createAnalyticsService } from './services/analytics/analytics-service';
import { createAppAccess } from './services/apps/app-access';
import { createAppsService } from './services/apps/apps-service';
import { createAccounts } from './services/auth/accounts';
import { createEntitiesService } from './services/entities/entities-service';
import { cacheAcrossInstances } from './services/entities/cached-records-store';
import { createEntityEvents } from './services/entities/entity-events';
import { createReadCache } from './services/entities/read-cache';
import { USER_ENTITY } from './services/entities/user-entity';
import { loadProject, projectDirFrom } from './services/entities/project-loader';
import { createBuiltinImageProvider, type ImageProvider } from './services/images/image-provider';
import { createImageService } from './services/images/image-service';
import { createOpenAiImageProvider } from './services/images/openai-image-provider';
import { createMailer } from './services/mail/mailer';
import { startEntityDelivery } from './services/realtime/entity-delivery';
import { createAnalyticsStore } from './store/analytics-store';
import { createAppsStore } from './store/apps-store';
import { createAuthCodesStore } from './store/auth-codes-store';
import { createEntityRecordsStore } from './store/entity-records-store';
import { createImagesStore } from './store/images-store';
import type { Database } from './store/database';
import { runMigrations } from './store/migrations';
import { openDatabase } from './store/open-database';
import { createUsersStore } from './store/users-store';

// Both src/main.ts and the bundle in dist/main.js sit two levels below the repository root.
const REPO_ROOT = resolve(import.meta.dirname, '../..');
const SHUTDOWN_TIMEOUT_MS = 10_000;
/** READ_CACHE_TTL_MS bounds how long a cached entity read lives even without writes (lost invalidations). */
const READ_CACHE_TTL_MS = 30_000;

function createLogger(level: string): Logger {
  return pino({
    level,
    redact: {
      paths: ['req.headers.authorization', 'headers.authorization', 'request.headers.authorization'],
      censor: '[redacted]',
    },
  });
}

function readConfig(): { config: ServerConfig; site: SiteConfig } {
  const bootLogger = createLogger(process.env.LOG_LEVEL === 'silent' ? 'silent' : 'info');
  try {
    const site = loadSiteConfig(join(REPO_ROOT, 'site.config.json'));
    const config = parseServerEnv(process.env, REPO_ROOT, site.appId);
    for (const warning of siteConfigWarnings(site)) bootLogger.warn(warning);
    return { config, site };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    bootLogger.fatal(message);
    // Also plain text on stderr, so the reason is readable without a log viewer.
    console.error(message);
    process.exit(1);
  }
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

async function main(): Promise<void> {
  const { config, site } = readConfig();
  // An invalid app project (base44/ or PROJECT_DIR) stops start-up with the file and the problem.
  const project = await loadProject(projectDirFrom(process.env, REPO_ROOT));
  const logger = createLogger(config.LOG_LEVEL);
  await mkdir(config.DATA_DIR, { recursive: true });

  let shuttingDown = false;
  let app: FastifyInstance | null = null;
  let db: Database | null = null;

  const shutdown = async (signal: string) => {
    if (shuttingDown) {
      logger.warn({ signal }, 'second signal: forcing exit');
      process.exit(1);
    }
    shuttingDown = true;
    logger.info({ signal }, 'shutting down');
    setTimeout(() => {
      logger.error(`shutdown took longer than ${SHUTDOWN_TIMEOUT_MS / 1000} s: forcing exit`);
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS).unref();
    try {
      await removeRuntimeInfo(config.DATA_DIR, process.pid);
      // A request still running at the signal (a query until its deadline) ends on a keep-alive connection
      // that the client keeps open: close connections as they become idle, or they hold the close open.
      const sweep = setInterval(() => app?.server.closeIdleConnections(), 100);
      await app?.close();
      clearInterval(sweep);
      await db?.close();
      logger.info('stopped');
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  const opened = await openDatabase(
    config,
    (error) => logger.warn({ err: error }, 'database connection error'),
    logger,
  );
  db = opened.db;
  const realtime = createRealtime({
    redisUrl: config.REDIS_URL,
    redisPrefix: config.REDIS_PREFIX,
    log: logger,
  });
  const applied = await runMigrations(db);
  if (applied.length > 0) logger.info({ migrations: applied }, 'applied database migrations');

  const apps = createAppsService(createAppsStore(db));
  await apps.ensureApp(config.APP_ID);
  if (config.APP_VISIBILITY || config.APP_SELF_SIGNUP) {
    await apps.updateSettings(config.APP_ID, {
      visibility: config.APP_VISIBILITY,
      selfSignup: config.APP_SELF_SIGNUP === undefined ? undefined : config.APP_SELF_SIGNUP === 'true',
    });
  }
  const secrets = await loadSecrets(config.DATA_DIR, {
    jwtSecret: config.JWT_SECRET,
    serviceToken: config.SERVICE_TOKEN,
  });
  const mailer = createMailer({
    smtpUrl: config.SMTP_URL,
    from: config.MAIL_FROM,
    outboxDir: join(config.DATA_DIR, 'outbox'),
    log: logger,
  });
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
  const accounts = await createAccounts({
    config,
    secrets,
    stores: { users: createUsersStore(db), codes: createAuthCodesStore(db) },
    apps,
    mailer,
    log: logger,
    userEntity: project.entities.get(USER_ENTITY),
    events: entityEvents,
    limiter,
    hub: realtime.hub,
  });
  const analytics = createAnalyticsService(apps, createAnalyticsStore(db));
  const images = createImageService(createImagesStore(db), createImageProvider(config));
  const cacheOn = config.READ_CACHE === 'on' || (config.READ_CACHE === 'auto' && !config.REDIS_URL);
  const recordsStore = createEntityRecordsStore(db);
  const entities = createEntitiesService({
    project,
    store: cacheOn
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
  // Committed writes go to subscribed sockets, each filtered by its reader's read rules, on every instance.
  const appAccess = createAppAccess({ apps, accessTokens: accounts.accessTokens });
  startEntityDelivery({
    project,
    events: entityEvents,
    hub: realtime.hub,
    identify: appAccess.socketAccess,
    admitsAnonymous: appAccess.admitsAnonymous,
    log: logger,
  });

  const bundle = await loadSiteBundle(config.SITE_DIST);
  if (bundle.index === null) {
    logger.error(`The site is not built (${config.SITE_DIST} has no index.html): run \`npm run build\`.`);
  }
  for (const problem of bundle.problems) if (bundle.index !== null) logger.warn(problem);
  // The page is prerendered from the site config: if it changed since the build, what is served is stale.
  const configHash = createHash('sha256').update(JSON.stringify(site)).digest('hex');
  if (bundle.buildInfo && bundle.buildInfo.configHash !== configHash) {
    logger.warn(
      'The site was built from a different site config than this start uses (site.config.json or SITE_* changed): run `npm run build` (`npm start` rebuilds automatically).',
    );
  }

  app = await buildApp({
    logger,
    appId: config.APP_ID,
    publicUrl: config.PUBLIC_URL,
    frameAncestors: config.FRAME_ANCESTORS,
    bundle,
    apps,
    analytics,
    images,
    accounts,
    entities,
    isShuttingDown: () => shuttingDown,
    realtime,
    limiter,
    integrationLimits: {
      perIpPerMinute: config.INTEGRATION_RATE_LIMIT_PER_MINUTE,
      perUserPerMinute: config.INTEGRATION_RATE_LIMIT_PER_USER_PER_MINUTE,
    },
    trustProxy: config.TRUST_PROXY,
    isEntity: (entity) => entity === USER_ENTITY || project.entities.has(entity),
    maxRoomsPerSocket: config.REALTIME_MAX_ROOMS_PER_SOCKET,
  });
  app.addHook('onClose', async () => limiterRedis?.close());
  await app.listen({ port: config.PORT, host: config.HOST });

  const hostForUrl = config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;
  const localUrl = `http://${hostForUrl === '0.0.0.0' ? '127.0.0.1' : hostForUrl}:${config.PORT}`;
  await writeRuntimeInfo(config.DATA_DIR, { pid: process.pid, url: localUrl, appId: config.APP_ID });
  logger.info({ url: config.PUBLIC_URL ?? `http://${hostForUrl}:${config.PORT}` }, 'site served');
  if (!config.PUBLIC_URL) {
    logger.warn(
      `PUBLIC_URL is not set: password reset and invite mails are sent only for requests addressed to this server's own address (${localUrl}); others get 503. Set PUBLIC_URL to the address users open.`,
    );
  }
  const access = await apps.findAccessSettings(config.APP_ID);
  if (access.visibility === 'private_with_login' && access.selfSignup) {
    logger.warn(
      'The app is private_with_login with self-sign-up on: anyone who verifies an email address is approved and reads its data. Set APP_SELF_SIGNUP=false to approve users yourself (invites, the CLI).',
    );
  }
  logger.info(
    { database: opened.label, ...(opened.folder ? { folder: opened.folder } : {}) },
    'database in use',
  );
  logger.info({ dataDir: config.DATA_DIR }, 'data folder');
  logger.info({ project: project.dir, entities: project.entities.size, seeded }, 'app project');
  logger.info({ realtime: realtime.mode }, 'realtime mode');
  logger.info(
    {
      readCache: cacheOn
        ? `on (${config.READ_CACHE_MB} MB)`
        : config.READ_CACHE === 'off'
          ? 'off (READ_CACHE=off)'
          : 'off (several instances: READ_CACHE=on caches with invalidation through Redis)',
    },
    'entity read cache',
  );
  logger.info({ mail: mailer.describe() }, 'mail delivery');
  logger.info(
    {
      jwtSecret: config.JWT_SECRET ? 'from JWT_SECRET' : 'generated, kept in DATA_DIR/secrets.json',
      serviceToken: config.SERVICE_TOKEN
        ? 'from SERVICE_TOKEN'
        : 'generated: print it with `npm run cli -- service-token`',
    },
    'auth secrets',
  );
  logger.info({ appId: config.APP_ID, imageProvider: images.providerId.split(' ')[0] }, 'app ready');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
