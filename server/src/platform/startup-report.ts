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
import { FIRST_ADMIN_COMMAND, startupSummary } from './startup-summary';

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
  /** countAdmins is how many admins the app has (none: the report says how to make the first). */
  countAdmins?: () => Promise<number>;
}

/** HumanOutput prints the start-up summary at a terminal, instead of the log lines. */
export interface HumanOutput {
  print(text: string): void;
  /** site is the site config, whose warnings the summary lists too (the JSON log has them from the boot). */
  site?: SiteConfig;
}

/**
 * logStartup writes what an operator checks after a start, once the server listens: where the site is
 * served, the settings that weaken it, and the database, project, realtime, cache, mail and secrets in use.
 * With human (a terminal), a short summary is printed instead (platform/startup-summary.ts).
 */
export async function logStartup(platform: StartupFacts, logger: Logger, human?: HumanOutput): Promise<void> {
  const { config, database, project, realtime, mailer, images } = platform;
  const hostForUrl = config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;
  const siteUrl = config.PUBLIC_URL ?? `http://${hostForUrl}:${config.PORT}`;
  const warnings = await findStartupWarnings({
    config,
    apps: platform.apps,
    localUrl: localUrlOf(config),
    secretsKeySource: platform.secretsReport?.keySource,
    site: human?.site,
  });
  const admins = platform.countAdmins ? await platform.countAdmins() : 1;
  const capacity = realtimeCapacity(config.REALTIME_MAX_SOCKETS);
  if (human) {
    human.print(
      startupSummary({
        appName: project.name || config.APP_ID,
        siteUrl,
        appId: config.APP_ID,
        database: database.folder ? `${database.label}, in ${database.folder}` : database.label,
        realtime: realtime.mode,
        maxSockets: capacity.maxSockets,
        mail: mailer.describe(),
        llm: config.LLM_PROVIDER_URL ? new URL(config.LLM_PROVIDER_URL).host : null,
        warnings,
        admins,
      }),
    );
    return;
  }
  logger.info({ url: siteUrl }, 'site served');
  for (const warning of warnings) logger.warn(warningLine(warning));
  if (admins === 0) logger.info({ command: FIRST_ADMIN_COMMAND }, 'no admin yet: make the first one');
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
