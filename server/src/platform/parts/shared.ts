// What every part is built from (part.ts `Shared`): realtime, the server's secrets, the limiter and usage
// counters (in Redis with REDIS_URL), the app row and its settings, the mailer, identity and app access.
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { ServerConfig } from '../../config/server-env';
import { loadSecrets, type ServerSecrets } from '../../lib/secrets-file';
import { loadSiteBundle } from '../../lib/site-bundle';
import type { Project } from '../../project/project-loader';
import { createRealtime, type RealtimeHub } from '../../realtime/realtime-hub';
import { createAppsService, type AppsService } from '../../services/apps/apps-service';
import { createEntityEvents } from '../../services/entities/entity-events';
import { createAppAccess } from '../../services/identity/app-access';
import { createIdentity, type Identity } from '../../services/identity/identity';
import { createSignInSessionsStore } from '../../store/sign-in-sessions-store';
import { createRateLimiter } from '../../services/limits/rate-limiter';
import { createUsageCounter } from '../../services/limits/usage-counter';
import { createMailer, type Mailer } from '../../services/mail/mailer';
import { recordedMailer } from '../../services/mail/recorded-mailer';
import { createMailLogStore } from '../../store/mail-log-store';
import { createAppsStore } from '../../store/apps-store';
import type { Database } from '../../store/database';
import { createUsersStore } from '../../store/users-store';
import type { Shared } from './part';

/** AppBasics are the app row (ensured), its mailer and identity: what the server and the CLI both build. */
export interface AppBasics {
  apps: AppsService;
  mailer: Mailer;
  identity: Identity;
}

/**
 * buildAppBasics ensures the app row and builds its mailer and identity on db. The CLI's direct mode has no
 * hub: other instances' cached users rows then expire on their own, within 500 ms.
 */
export async function buildAppBasics(input: {
  config: ServerConfig;
  db: Database;
  secrets: ServerSecrets;
  log: Logger;
  hub?: RealtimeHub | undefined;
}): Promise<AppBasics> {
  const { config, db } = input;
  const apps = createAppsService(createAppsStore(db));
  await apps.ensureApp(config.APP_ID);
  const mailer = recordedMailer(
    createMailer({
      smtpUrl: config.SMTP_URL,
      from: config.MAIL_FROM,
      outboxDir: join(config.DATA_DIR, 'outbox'),
      log: input.log,
    }),
    {
      appId: config.APP_ID,
      transport: config.SMTP_URL ? 'smtp' : 'outbox',
      store: createMailLogStore(db),
      onRecordError: (error) => input.log.warn({ err: error }, 'mail_log: a send was not recorded'),
    },
  );
  const identity = createIdentity({
    secrets: input.secrets,
    jwtExpiresIn: config.JWT_EXPIRES_IN,
    users: createUsersStore(db),
    sessions: createSignInSessionsStore(db),
    hub: input.hub,
  });
  return { apps, mailer, identity };
}

/** buildShared builds what every part shares; close ends the limiter's Redis connection (last). */
export async function buildShared(input: {
  config: ServerConfig;
  project: Project;
  db: Database;
  logger: Logger;
  isShuttingDown: () => boolean;
}): Promise<{ shared: Shared; close(): Promise<void> }> {
  const { config, db, logger } = input;
  // Redis's clients are loaded only with REDIS_URL: a single instance starts without them.
  const redis = config.REDIS_URL ? { url: config.REDIS_URL, ...(await import('./redis-clients')) } : null;
  const realtime = createRealtime({
    fanout: redis?.createRedisFanout(redis.url, logger, config.REDIS_PREFIX) ?? null,
    log: logger,
  });
  const secrets = await loadSecrets(config.DATA_DIR, {
    jwtSecret: config.JWT_SECRET,
    serviceToken: config.SERVICE_TOKEN,
    secretsKey: config.SECRETS_KEY,
  });
  // One limiter for auth, integrations and realtime handshakes: counters in Redis (shared by every
  // instance) with REDIS_URL; daily shares and per-minute counters are kept in the same place.
  const limiterRedis = redis ? redis.createRateLimitRedis(redis.url, logger) : null;
  const counterStore = {
    redis: limiterRedis?.client,
    prefix: config.REDIS_PREFIX,
    maxKeys: config.RATE_LIMIT_MAX_KEYS,
    onRedisError: limiterRedis?.reportFallback,
  };
  const limiter = createRateLimiter(counterStore);
  const { apps, mailer, identity } = await buildAppBasics({
    config,
    db,
    secrets,
    log: logger,
    hub: realtime.hub,
  });
  if (config.APP_VISIBILITY || config.APP_SELF_SIGNUP) {
    await apps.updateSettings(config.APP_ID, {
      visibility: config.APP_VISIBILITY,
      selfSignup: config.APP_SELF_SIGNUP === undefined ? undefined : config.APP_SELF_SIGNUP === 'true',
    });
  }
  const shared: Shared = {
    config,
    project: input.project,
    db,
    logger,
    realtime,
    limiter,
    usage: createUsageCounter(counterStore),
    sharedCache: limiterRedis?.client ?? null,
    countPer: (windowMs) => createUsageCounter({ ...counterStore, windowMs }),
    secrets,
    apps,
    mailer,
    identity,
    // One app access for the HTTP guard and the socket handshakes.
    access: createAppAccess({ apps, accessTokens: identity.tokens }),
    events: createEntityEvents((error) => logger.error({ err: error }, 'entity event subscriber failed')),
    // Read before the parts: the hosted app's own reset page decides where mailed links go.
    bundle: await loadSiteBundle(config.SITE_DIST),
    isShuttingDown: input.isShuttingDown,
  };
  return {
    shared,
    close: async () => {
      await limiterRedis?.close();
    },
  };
}
