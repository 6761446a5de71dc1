import type { Logger } from 'pino';
import type { ServerConfig } from '../config/server-env';
import { readCacheOn, type Platform } from './platform';

/** localUrlOf is the address this process answers on locally (the CLI finds a live server through it). */
export function localUrlOf(config: ServerConfig): string {
  const host = config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;
  return `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${config.PORT}`;
}

/**
 * logStartup writes what an operator checks after a start, once the server listens: where the site is
 * served, the settings that weaken it, and the database, project, realtime, cache, mail and secrets in use.
 */
export async function logStartup(platform: Platform, logger: Logger): Promise<void> {
  const { config, database, project, realtime, mailer, images } = platform;
  const hostForUrl = config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;
  logger.info({ url: config.PUBLIC_URL ?? `http://${hostForUrl}:${config.PORT}` }, 'site served');
  if (!config.PUBLIC_URL) {
    logger.warn(
      `PUBLIC_URL is not set: password reset and invite mails are sent only for requests addressed to this server's own address (${localUrlOf(config)}); others get 503. Set PUBLIC_URL to the address users open.`,
    );
  }
  const access = await platform.apps.findAccessSettings(config.APP_ID);
  if (access.visibility === 'private_with_login' && access.selfSignup) {
    logger.warn(
      'The app is private_with_login with self-sign-up on: anyone who verifies an email address is approved and reads its data. Set APP_SELF_SIGNUP=false to approve users yourself (invites, the CLI).',
    );
  }
  logger.info(
    { database: database.label, ...(database.folder ? { folder: database.folder } : {}) },
    'database in use',
  );
  logger.info({ dataDir: config.DATA_DIR }, 'data folder');
  logger.info(
    { project: project.dir, entities: project.entities.size, seeded: platform.seeded },
    'app project',
  );
  logger.info({ realtime: realtime.mode }, 'realtime mode');
  logger.info(
    {
      readCache: readCacheOn(config)
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
