import { isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { DEFAULT_FRAME_ANCESTORS, FRAME_ANCESTOR_SOURCE } from '../lib/content-security-policy';
import { AppLogsEnvShape } from './app-logs-env';
import { AuthEnvShape } from './auth-env';
import { blankAsUndefined, milliseconds } from './env-values';
import { FilesEnvShape, fileStorageKind } from './files-env';
import { ExtractionEnvShape } from './extraction-env';
import { AgentsEnvShape, ConnectorsEnvShape } from './agents-env';
import { FunctionsEnvShape } from './functions-env';
import { HostingEnvShape } from './hosting-env';
import { HttpEnvShape } from './http-env';
import { OutboundEnvShape } from './outbound-env';
import { SecretsEnvShape } from './secrets-env';
import { LimitsEnvShape } from './limits-env';
import { MailEnvShape } from './mail-env';
import { MarketEnvShape } from './market-env';
import { LlmEnvShape } from './llm-env';

const port = z.coerce
  .number()
  .int()
  .min(1, 'must be a port number between 1 and 65535')
  .max(65535, 'must be a port number between 1 and 65535');

const absoluteOrigin = z
  .url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' })
  .transform((url) => new URL(url).origin);

/** ServerEnvSchema lists every environment variable the server reads, with its default. */
export const ServerEnvSchema = z.object({
  PORT: z.preprocess(blankAsUndefined, port.default(8080)),
  HOST: z.preprocess(blankAsUndefined, z.string().min(1).default('127.0.0.1')),
  DATA_DIR: z.preprocess(blankAsUndefined, z.string().min(1).default('./data')),
  APP_ID: z.preprocess(
    blankAsUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1–64 letters, digits, "_" or "-"')
      .optional(),
  ),
  SITE_DIST: z.preprocess(blankAsUndefined, z.string().min(1).optional()),
  // The hosted app's repository (`npm start -- --app` sets it): its code is read to infer missing schemas.
  APP_SOURCE_DIR: z.preprocess(blankAsUndefined, z.string().min(1).optional()),
  INFER_ENTITIES: z.preprocess(
    blankAsUndefined,
    z.enum(['on', 'off'], { error: 'must be on or off' }).default('on'),
  ),
  LOG_LEVEL: z.preprocess(
    blankAsUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
  // auto: a short human summary and pretty, quiet logs on a terminal; JSON lines anywhere else.
  LOG_FORMAT: z.preprocess(
    blankAsUndefined,
    z.enum(['auto', 'json', 'pretty'], { error: 'must be auto, json or pretty' }).default('auto'),
  ),
  PUBLIC_URL: z.preprocess(blankAsUndefined, absoluteOrigin.optional()),
  IMAGE_PROVIDER: z.preprocess(
    blankAsUndefined,
    z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' }).optional(),
  ),
  IMAGE_PROVIDER_KEY: z.preprocess(blankAsUndefined, z.string().optional()),
  IMAGE_MODEL: z.preprocess(blankAsUndefined, z.string().min(1).default('gpt-image-1')),
  IMAGE_PROVIDER_TIMEOUT_MS: milliseconds(60_000),
  DATABASE_URL: z.preprocess(
    blankAsUndefined,
    z
      .url({
        protocol: /^postgres(ql)?$/,
        error: 'must be a postgres:// or postgresql:// URL (e.g. postgres://user:password@host:5432/db)',
      })
      .optional(),
  ),
  DATABASE_POOL_SIZE: z.preprocess(
    blankAsUndefined,
    z.coerce
      .number()
      .int('must be a whole number of connections')
      .min(1, 'must be between 1 and 1000')
      .max(1000, 'must be between 1 and 1000')
      .default(10),
  ),
  // A statement running longer is stopped and its request answered 503 (PGlite: its worker is restarted).
  DATABASE_QUERY_TIMEOUT_MS: milliseconds(5_000),
  // How long a statement may scan with `$regex` before it stops (400 naming the cause); default by store.
  ENTITY_REGEX_DEADLINE_MS: z.preprocess(
    blankAsUndefined,
    z.coerce
      .number()
      .int('must be a whole number of milliseconds')
      .min(50, 'must be at least 50 milliseconds')
      .max(600_000, 'must be at most 600000 milliseconds')
      .optional(),
  ),
  REDIS_URL: z.preprocess(
    blankAsUndefined,
    z
      .url({
        protocol: /^rediss?$/,
        error: 'must be a redis:// or rediss:// URL (e.g. redis://127.0.0.1:6379)',
      })
      .optional(),
  ),
  // Deployments sharing one Redis keep apart by prefix; every instance of one deployment uses the same.
  REDIS_PREFIX: z.preprocess(
    blankAsUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9:_-]{1,64}$/, 'must be 1–64 letters, digits, ":", "_" or "-"')
      .default('queen-realtime'),
  ),
  // auto: on for one instance, off with REDIS_URL (another instance's write reaches this cache through
  // Redis, so for about a millisecond this instance could still answer from it).
  READ_CACHE: z.preprocess(blankAsUndefined, z.enum(['auto', 'on', 'off']).default('auto')),
  // The budget is the cache's estimate of its heap (about four times the answers' JSON): 16 MB holds
  // ~10,000 single records or ~200 pages of 50. A larger heap costs every request more in garbage collection.
  READ_CACHE_MB: z.preprocess(
    blankAsUndefined,
    z.coerce
      .number()
      .int('must be a whole number of megabytes')
      .min(1, 'must be between 1 and 65536')
      .max(65536, 'must be between 1 and 65536')
      .default(16),
  ),
  // Who may embed the site's pages in a frame (CSP frame-ancestors); /login is never framed.
  FRAME_ANCESTORS: z.preprocess(
    blankAsUndefined,
    z
      .string()
      .default(DEFAULT_FRAME_ANCESTORS)
      .transform((value) => value.split(/[\s,]+/).filter(Boolean))
      .refine(
        (sources) => sources.length > 0 && sources.every((source) => FRAME_ANCESTOR_SOURCE.test(source)),
        {
          message:
            "must be sources separated by spaces or commas: 'self', 'none', * or http(s) origins (https://*.example.com allowed)",
        },
      )
      .transform((sources) => sources.join(' ')),
  ),
  ...AuthEnvShape,
  ...LimitsEnvShape,
  ...HttpEnvShape,
  ...AppLogsEnvShape,
  ...FilesEnvShape,
  ...HostingEnvShape,
  ...OutboundEnvShape,
  ...MarketEnvShape,
  ...SecretsEnvShape,
  ...MailEnvShape,
  ...ExtractionEnvShape,
  ...LlmEnvShape,
  ...AgentsEnvShape,
  ...ConnectorsEnvShape,
  ...FunctionsEnvShape,
});

export type ServerEnv = z.infer<typeof ServerEnvSchema>;

/** ServerConfig is the parsed environment with paths made absolute and the app id settled. */
export interface ServerConfig extends Omit<ServerEnv, 'APP_ID' | 'SITE_DIST'> {
  APP_ID: string;
  SITE_DIST: string;
  /** OWN_SITE_DIST is our own site's build (`site/dist`), whose `/login` serves whatever SITE_DIST holds. */
  OWN_SITE_DIST: string;
  /** INTEGRATION_SECRETS are `INTEGRATION_SECRET_<NAME>` variables by NAME (custom integrations' fallback). */
  INTEGRATION_SECRETS: Record<string, string>;
}

export class ServerEnvError extends Error {
  override name = 'ServerEnvError';
}

/**
 * parseServerEnv validates the environment and resolves paths against repoRoot.
 * It throws a ServerEnvError naming every bad variable; defaultAppId comes from the site config.
 */
export function parseServerEnv(env: NodeJS.ProcessEnv, repoRoot: string, defaultAppId: string): ServerConfig {
  const result = ServerEnvSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  - ${issue.path.join('.')}: ${issue.message}`);
    throw new ServerEnvError(`Invalid environment:\n${lines.join('\n')}`);
  }
  const parsed = result.data;
  const storage = fileStorageKind(parsed);
  if ('problem' in storage) throw new ServerEnvError(`Invalid environment:\n  - ${storage.problem}`);
  return {
    ...parsed,
    // NB: relative paths are taken from the working directory, like any CLI would.
    DATA_DIR: isAbsolute(parsed.DATA_DIR) ? parsed.DATA_DIR : resolve(parsed.DATA_DIR),
    APP_ID: parsed.APP_ID ?? defaultAppId,
    SITE_DIST: parsed.SITE_DIST ? resolve(parsed.SITE_DIST) : resolve(repoRoot, 'site/dist'),
    OWN_SITE_DIST: resolve(repoRoot, 'site/dist'),
    INTEGRATION_SECRETS: integrationSecrets(env),
  };
}

/** integrationSecrets collects `INTEGRATION_SECRET_<NAME>=value` (non-empty) as {NAME: value}. */
function integrationSecrets(env: NodeJS.ProcessEnv): Record<string, string> {
  const found: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    const name = /^INTEGRATION_SECRET_([A-Z_][A-Z0-9_]{0,63})$/.exec(key)?.[1];
    if (name && value) found[name] = value;
  }
  return found;
}
