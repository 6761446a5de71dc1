// The composition root: every part is built here, once, from the validated configuration, in the order
// their services need (as PocketBase's apis/base.go lists its route groups). main.ts (the server) builds
// through it, and the CLI's direct mode reuses its pieces, so wiring is written in one place.
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { SiteConfig } from '../../../site/src/config/site-config-schema';
import type { ServerConfig } from '../config/server-env';
import type { ServerSecrets } from '../lib/secrets-file';
import type { SiteBundle } from '../lib/site-bundle';
import type { Project } from '../project/project-loader';
import type { Realtime, RealtimeHub } from '../realtime/realtime-hub';
import type { AppsService } from '../services/apps/apps-service';
import { createAccounts, type Accounts } from '../services/auth/accounts';
import type { EntityEvents } from '../services/entities/entity-events';
import type { EntityDef } from '../project/project-loader';
import type { ImageService } from '../services/images/image-service';
import type { RateLimiter } from '../services/limits/rate-limiter';
import type { Mailer } from '../services/mail/mailer';
import { runMigrations } from '../store/migrations';
import { openDatabase, type OpenedDatabase } from '../store/open-database';
import { createAuthCodesStore } from '../store/auth-codes-store';
import type { Database } from '../store/database';
import { buildApp } from './app';
import { buildAdminPart } from './parts/admin';
import { buildAgentsPart } from './parts/agents';
import { buildAppLogsPart } from './parts/app-logs';
import { buildAuthPart } from './parts/auth';
import { buildAutomationsPart } from './parts/automations';
import { buildCoreIntegrationsPart } from './parts/core-integrations';
import { buildConnectorsPart } from './parts/connectors';
import { buildCustomIntegrationsPart } from './parts/custom-integrations';
import { buildEntitiesPart } from './parts/entities';
import { buildExtractionPart } from './parts/extraction';
import { buildFilesPart } from './parts/files';
import { buildFunctionsPart } from './parts/functions';
import { buildImagesPart } from './parts/images';
import { buildIntegrationsConsolePart } from './parts/integrations-console';
import { buildLlmPart } from './parts/llm';
import { buildMailPart } from './parts/mail';
import { buildMarketPart } from './parts/market';
import type { Part } from './parts/part';
import { buildSecretsPart } from './parts/secrets';
import { buildAppBasics, buildShared } from './parts/shared';
import { buildSitePart } from './parts/site';
import { realtimeCapacity } from '../lib/open-files-limit';

export { buildSecretsService } from './parts/secrets';

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

/** AccountsPart is what the CLI's direct mode builds: the app, its mail and its accounts. */
export interface AccountsPart {
  apps: AppsService;
  mailer: Mailer;
  accounts: Accounts;
}

/**
 * buildAccountsPart builds apps, mailer and accounts on db, with the app row ensured, for the CLI's direct
 * mode (the server builds them as parts: parts/shared.ts and parts/auth.ts).
 */
export async function buildAccountsPart(input: {
  config: ServerConfig;
  db: Database;
  secrets: ServerSecrets;
  log: Logger;
  userEntity?: EntityDef | undefined;
  events?: EntityEvents | undefined;
  limiter?: RateLimiter | undefined;
  hub?: RealtimeHub | undefined;
  appResetPage?: boolean | undefined;
}): Promise<AccountsPart> {
  const { apps, mailer, identity } = await buildAppBasics(input);
  const accounts = await createAccounts({
    config: input.config,
    identity,
    codes: createAuthCodesStore(input.db),
    apps,
    mailer,
    log: input.log,
    userEntity: input.userEntity,
    events: input.events,
    limiter: input.limiter,
    appResetPage: input.appResetPage,
  });
  return { apps, mailer, accounts };
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
  /** secretsReport is how many secrets the app had at start, and where their key came from. */
  secretsReport: { stored: number; keySource: string };
  /** countAdmins is how many admins the app has now (the start-up report says how to make the first). */
  countAdmins(): Promise<number>;
  /** parts are the capabilities, in build order. */
  parts: readonly Part[];
  /**
   * close stops the app (sockets first, then each part) and then the database. Requests still running
   * after graceMs (default 4 s) have their connections closed, so the database always closes in time.
   */
  close(options?: { graceMs?: number }): Promise<void>;
}

/** CLOSE_GRACE_MS is how long close lets running requests finish before it closes their connections. */
const CLOSE_GRACE_MS = 4_000;

/** buildPlatform builds every part once and the Fastify app on them, without listening. */
export async function buildPlatform(input: PlatformInput): Promise<Platform> {
  const { config, project, logger, database } = input;
  const { db } = database;
  const { shared, close: closeShared } = await buildShared({ ...input, db });

  const secrets = await buildSecretsPart(shared);
  const auth = await buildAuthPart(shared, secrets);
  const appLogs = buildAppLogsPart(shared);
  const files = await buildFilesPart(shared);
  const images = buildImagesPart(shared);
  const llm = buildLlmPart(shared, files);
  const entities = await buildEntitiesPart(shared, auth, appLogs);
  const functions = await buildFunctionsPart(shared, secrets, appLogs);
  const market = buildMarketPart(shared, files, input.site?.contractAddress);
  const custom = buildCustomIntegrationsPart(shared, secrets, files);
  const parts: Part[] = [
    secrets,
    auth,
    appLogs,
    files,
    images,
    buildMailPart(shared),
    llm,
    buildExtractionPart(shared, files, llm),
    custom,
    await buildConnectorsPart(shared, secrets, files, appLogs),
    buildCoreIntegrationsPart(shared),
    entities,
    functions,
    await buildAgentsPart(shared, entities, llm, functions),
    await buildAutomationsPart(shared, functions),
    buildAdminPart(shared, auth, secrets, llm, appLogs, entities, {
      databaseLabel: database.label,
      site: input.site,
    }),
    buildIntegrationsConsolePart(shared, {
      budget: llm.budget,
      custom: custom.custom,
      storage: files.storage,
      secrets: secrets.secrets,
      audit: appLogs.audit,
    }),
    market,
    await buildSitePart(shared, images, secrets, market, input.site),
  ];

  const app = await buildApp(
    {
      logger,
      appId: config.APP_ID,
      publicUrl: config.PUBLIC_URL,
      apps: shared.apps,
      access: shared.access,
      isShuttingDown: input.isShuttingDown,
      realtime: shared.realtime,
      limiter: shared.limiter,
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
        realtimeMaxSockets: realtimeCapacity(config.REALTIME_MAX_SOCKETS).maxSockets,
      },
      maxRoomsPerSocket: config.REALTIME_MAX_ROOMS_PER_SOCKET,
      corsOrigins: config.CORS_ORIGINS,
      // After every part has closed (they may still count while closing).
      afterParts: closeShared,
    },
    parts,
  );

  return {
    app,
    config,
    project,
    database,
    apps: shared.apps,
    mailer: shared.mailer,
    images: images.images,
    realtime: shared.realtime,
    bundle: shared.bundle,
    seeded: entities.seeded,
    readCache: entities.readCache,
    secretsReport: secrets.report,
    countAdmins: () => shared.identity.users.countAdmins(config.APP_ID),
    parts,
    async close({ graceMs = CLOSE_GRACE_MS } = {}) {
      // A request still running at close (a query until its deadline) ends on a keep-alive connection
      // that the client keeps open: close connections as they become idle, or they hold the close open.
      const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
      // The process is ended 10 s after a signal (shutdown.ts): past the grace period, close the busy
      // connections too, so that the parts and the database still close cleanly before then.
      const force = setTimeout(() => {
        logger.warn({ graceMs }, 'requests still running at shutdown: closing their connections');
        app.server.closeAllConnections();
      }, graceMs);
      const started = Date.now();
      try {
        await app.close();
      } finally {
        clearInterval(sweep);
        clearTimeout(force);
      }
      const httpClosed = Date.now();
      await db.close();
      logger.info({ appMs: httpClosed - started, databaseMs: Date.now() - httpClosed }, 'closed');
    },
  };
}
