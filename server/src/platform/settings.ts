import { join } from 'node:path';
import { pino, type Logger } from 'pino';
import pinoPretty from 'pino-pretty';
import {
  loadSiteConfig,
  siteConfigWarnings,
  type SiteConfig,
} from '../../../site/src/config/site-config-schema';
import { parseServerEnv, type ServerConfig } from '../config/server-env';
import { serializeRequest } from '../lib/log-redaction';

/** LogFormat is how the server writes its log: JSON lines, or pretty lines for a person at a terminal. */
export type LogFormat = 'json' | 'pretty';

/** logFormatOf resolves LOG_FORMAT: `auto` is pretty on a terminal (isTty), JSON lines anywhere else. */
export function logFormatOf(setting: 'auto' | LogFormat, isTty: boolean): LogFormat {
  if (setting !== 'auto') return setting;
  return isTty ? 'pretty' : 'json';
}

/**
 * createLogger is the server's pino logger; bearer tokens and tokens in URLs never reach the log. Pretty
 * lines are written synchronously on this thread: at a terminal the log is short (warnings, by default).
 */
export function createLogger(level: string, format: LogFormat = 'json'): Logger {
  const options = {
    level,
    // Fastify takes a logger instance's own `req` serializer over its default.
    serializers: { req: serializeRequest },
    redact: {
      paths: ['req.headers.authorization', 'headers.authorization', 'request.headers.authorization'],
      censor: '[redacted]',
    },
  };
  if (format === 'json') return pino(options);
  return pino(options, pinoPretty({ sync: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' }));
}

/** Settings are the validated server configuration and the site config it defaults from. */
export interface Settings {
  config: ServerConfig;
  site: SiteConfig;
  /** warnings name site-config choices worth a look; they do not stop a start. */
  warnings: string[];
}

/**
 * loadSettings reads `site.config.json` and the environment; it throws a message naming what to fix.
 * The app id is APP_ID, else the project's `.app.jsonc` id (projectAppId), else the site config's.
 */
export function loadSettings(env: NodeJS.ProcessEnv, repoRoot: string, projectAppId?: string): Settings {
  const site = loadSiteConfig(join(repoRoot, 'site.config.json'));
  const config = parseServerEnv(env, repoRoot, projectAppId ?? site.appId);
  return { config, site, warnings: siteConfigWarnings(site) };
}
