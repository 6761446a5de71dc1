import { siteConfigHash } from '../../../site/src/page-contract/build-info';
import type { Logger } from 'pino';
import { realtimeCapacity } from '../lib/open-files-limit';
import type { SiteConfig } from '../../../site/src/config/site-config-schema';
import type { ServerConfig } from '../config/server-env';
import type { SiteBundle } from '../lib/site-bundle';
import type { OpenedDatabase } from '../store/open-database';
import type { Project } from '../project/project-loader';
import type { AppsService } from '../services/apps/apps-service';
import type { ImageService } from '../services/images/image-service';
import type { Mailer } from '../services/mail/mailer';
import { findStartupWarnings, warningLine } from './startup-warnings';

/** localUrlOf is the address this process answers on locally (the CLI finds a live server through it). */
export function localUrlOf(config: ServerConfig): string {
  const host = config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;
  return `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${config.PORT}`;
}

/** StartupFacts is what the start-up report names (a Platform has them all). */
export interface StartupFacts {
  config: ServerConfig;
  database: OpenedDatabase;
  project: Project;
  realtime: { mode: string };
  mailer: Mailer;
  images: ImageService;
  apps: AppsService;
  seeded: Record<string, number>;
  /** readCache says whether entity reads are cached on this instance. */
  readCache: boolean;
  /** secretsReport is how many app secrets are stored and where their key comes from (never a value). */
  secretsReport?: { stored: number; keySource: string };
}

/**
 * logStartup writes what an operator checks after a start, once the server listens: where the site is
 * served, the settings that weaken it, and the database, project, realtime, cache, mail and secrets in use.
 */
export async function logStartup(platform: StartupFacts, logger: Logger): Promise<void> {
  const { config, database, project, realtime, mailer, images } = platform;
  const hostForUrl = config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;
  logger.info({ url: config.PUBLIC_URL ?? `http://${hostForUrl}:${config.PORT}` }, 'site served');
  const warnings = await findStartupWarnings({
    config,
    apps: platform.apps,
    localUrl: localUrlOf(config),
    secretsKeySource: platform.secretsReport?.keySource,
  });
  for (const warning of warnings) logger.warn(warningLine(warning));
  logger.info(
    { database: database.label, ...(database.folder ? { folder: database.folder } : {}) },
    'database in use',
  );
  logger.info({ dataDir: config.DATA_DIR }, 'data folder');
  logger.info(
    {
      project: project.dir,
      entities: project.entities.size,
      seeded: platform.seeded,
      customIntegrations: [...(project.customIntegrations?.keys() ?? [])],
    },
    'app project',
  );
  const capacity = realtimeCapacity(config.REALTIME_MAX_SOCKETS);
  logger.info(
    {
      realtime: realtime.mode,
      openFilesLimit: capacity.openFilesLimit ?? 'unknown',
      maxSockets: capacity.maxSockets,
      ...(config.REALTIME_MAX_SOCKETS ? {} : { maxSocketsFrom: 'the open-files limit' }),
    },
    'realtime mode',
  );
  logger.info(
    {
      readCache: platform.readCache
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
      sendEmail: `to the app's users, ${config.MAIL_RATE_LIMIT_PER_CALLER} per caller, ${config.MAIL_RATE_LIMIT_PER_IP} per IP and ${config.MAIL_RATE_LIMIT_PER_APP} per app (and as many for the service role) every ${config.MAIL_RATE_LIMIT_WINDOW_SECONDS} s`,
      extraction: `files up to ${config.EXTRACT_MAX_MB} MB and ${config.EXTRACT_MAX_ROWS} rows; documents beyond one text field need LLM_PROVIDER_URL`,
    },
    'integrations',
  );
  logger.info(
    config.LLM_PROVIDER_URL
      ? {
          // The host only: a path or query could carry a key some providers accept there.
          provider: new URL(config.LLM_PROVIDER_URL).host,
          model: config.LLM_MODEL,
          mappedModels: Object.keys(config.LLM_MODEL_MAP),
          dailyTokenBudget: config.LLM_DAILY_TOKEN_BUDGET,
          webSearch: config.WEB_SEARCH_URL ? new URL(config.WEB_SEARCH_URL).host : 'off (WEB_SEARCH_URL)',
        }
      : { provider: 'none: InvokeLLM and TranscribeAudio answer 503 until LLM_PROVIDER_URL is set' },
    'LLM provider',
  );
  logger.info(
    {
      jwtSecret: config.JWT_SECRET ? 'from JWT_SECRET' : 'generated, kept in DATA_DIR/secrets.json',
      serviceToken: config.SERVICE_TOKEN
        ? 'from SERVICE_TOKEN'
        : 'generated: print it with `npm run cli -- service-token`',
    },
    'auth secrets',
  );
  if (platform.secretsReport) {
    const { stored, keySource } = platform.secretsReport;
    logger.info(
      {
        stored,
        key:
          keySource === 'SECRETS_KEY'
            ? 'from SECRETS_KEY'
            : 'generated, kept in DATA_DIR/secrets.json (set SECRETS_KEY to share it between instances)',
      },
      'app secrets',
    );
  }
  logger.info({ appId: config.APP_ID, imageProvider: images.providerId.split(' ')[0] }, 'app ready');
}

/** reportSiteBundle warns, while building, when the site is not built, has problems, or was built from another site config. */
export function reportSiteBundle(
  bundle: SiteBundle,
  config: ServerConfig,
  site: SiteConfig | undefined,
  logger: Logger,
): void {
  if (bundle.index === null) {
    logger.error(`The site is not built (${config.SITE_DIST} has no index.html): run \`npm run build\`.`);
  }
  for (const problem of bundle.problems) if (bundle.index !== null) logger.warn(problem);
  if (bundle.kind === 'app') {
    // Another app's build: our site's page contract and config do not apply to it.
    logger.info({ siteDist: config.SITE_DIST }, 'serving a hosted app build (single-page app)');
    return;
  }
  if (!site) return;
  // The page is prerendered from the site config: if it changed since the build, what is served is stale.
  const configHash = siteConfigHash(site);
  if (bundle.buildInfo && bundle.buildInfo.configHash !== configHash) {
    logger.warn(
      'The site was built from a different site config than this start uses (site.config.json or SITE_* changed): run `npm run build` (`npm start` rebuilds automatically).',
    );
  }
}
