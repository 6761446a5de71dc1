// Entry point: configuration → platform → listen → shutdown. Every failure before listening exits
// non-zero with a message that names what to fix; the wiring itself lives in platform/platform.ts.
import { mkdir } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { makeDataDirPrivate } from './lib/private-data-dir';
import { removeRuntimeInfo, writeRuntimeInfo } from './lib/runtime-file';
import { createLogger, loadSettings, logFormatOf, type Settings } from './platform/settings';
import {
  buildPlatform,
  openPlatformDatabase,
  type Platform,
  type PlatformDatabase,
} from './platform/platform';
import { tuneGarbageCollector } from './lib/gc-tuning';
import { logProcessErrors } from './platform/process-errors';
import { stopOnSignals } from './platform/shutdown';
import { localUrlOf, logStartup } from './platform/startup-report';
import type { Logger } from 'pino';
import type { ServerConfig } from './config/server-env';
import { entityNamesInBuild, undeclaredEntities } from './project/build-entity-names';
import { withInferredEntities } from './project/inferred-at-start';
import { onUndeclaredField } from './project/record-validator';
import { loadProject, projectDirFrom, type Project } from './project/project-loader';

// Both src/main.ts and the bundle in dist/main.js sit two levels below the repository root.
const REPO_ROOT = resolve(import.meta.dirname, '../..');

function readSettings(projectAppId: string | undefined): Settings {
  const bootLogger = createLogger(process.env.LOG_LEVEL === 'silent' ? 'silent' : 'info');
  try {
    const settings = loadSettings(process.env, REPO_ROOT, projectAppId);
    // At a terminal the start-up summary lists them, with the others.
    if (logFormatOf(settings.config.LOG_FORMAT, isTerminal()) === 'json') {
      for (const warning of settings.warnings) bootLogger.warn(warning);
    }
    return settings;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    bootLogger.fatal(message);
    // Also plain text on stderr, so the reason is readable without a log viewer.
    console.error(message);
    process.exit(1);
  }
}

/** isTerminal says whether a person reads the output (LOG_FORMAT=auto then prints for them). */
const isTerminal = () => Boolean(process.stdout.isTTY);

/**
 * warnOfUndeclaredEntities says which entities a hosted build uses that the project does not declare
 * (Base44's GitHub sync writes only some schemas): each answers 404 until it has a schema.
 */
async function warnOfUndeclaredEntities(
  project: Project,
  config: ServerConfig,
  logger: Logger,
): Promise<void> {
  if (config.SITE_DIST === config.OWN_SITE_DIST) return;
  const missing = undeclaredEntities(await entityNamesInBuild(config.SITE_DIST), project.entities.keys());
  if (missing.length === 0) return;
  logger.warn(
    { entities: missing },
    `the app's build uses entities its project does not declare (${missing.join(', ')}): each answers 404 until it has a schema. ` +
      'Write them with `npm run cli -- entities infer --app PATH` (inferred schemas admit signed-in users only; check their rules).',
  );
}

async function main(): Promise<void> {
  tuneGarbageCollector();
  // An invalid app project (base44/ or PROJECT_DIR) stops start-up with the file and the problem.
  const declaredProject = await loadProject(projectDirFrom(process.env, REPO_ROOT));
  const { config, site } = readSettings(declaredProject.appId);
  const logFormat = logFormatOf(config.LOG_FORMAT, isTerminal());
  // At a terminal the summary says what the info lines would (and requests log at info): warnings and
  // errors only, unless LOG_LEVEL asks for more.
  const level = logFormat === 'pretty' && !process.env.LOG_LEVEL ? 'warn' : config.LOG_LEVEL;
  const logger = createLogger(level, logFormat);
  logProcessErrors(logger);
  const project = await withInferredEntities(declaredProject, config, logger);
  await warnOfUndeclaredEntities(project, config, logger);
  onUndeclaredField((entity, field) =>
    logger.warn({ entity, field }, 'a record field the inferred schema does not declare was kept'),
  );
  // Owner-only from the first file on (PGlite writes its files world-readable); locked again before
  // listening, for what start-up created.
  await mkdir(config.DATA_DIR, { recursive: true, mode: 0o700 });
  await makeDataDirPrivate(config.DATA_DIR, reachableByFunctions(config));

  let database: PlatformDatabase | null = null;
  let platform: Platform | null = null;
  const isShuttingDown = stopOnSignals(logger, async () => {
    await removeRuntimeInfo(config.DATA_DIR, process.pid);
    await (platform ? platform.close() : database?.db.close());
  });

  database = await openPlatformDatabase(config, logger);
  platform = await buildPlatform({
    config,
    site,
    project,
    logger,
    database,
    isShuttingDown,
  });
  await makeDataDirPrivate(config.DATA_DIR, reachableByFunctions(config));
  await platform.app.listen({ port: config.PORT, host: config.HOST });
  await writeRuntimeInfo(config.DATA_DIR, {
    pid: process.pid,
    url: localUrlOf(config),
    appId: config.APP_ID,
  });
  await logStartup(
    platform,
    logger,
    logFormat === 'pretty' ? { print: (text) => process.stdout.write(text), site } : undefined,
  );
}

/**
 * reachableByFunctions names the folder of DATA_DIR that functions run as another account (`nobody`, when
 * the server runs as root) must read: the Deno package cache, when it is kept there.
 */
function reachableByFunctions(config: Settings['config']): string[] {
  if (process.getuid?.() !== 0) return [];
  const denoDir = resolve(config.FUNCTIONS_DENO_DIR ?? join(config.DATA_DIR, 'deno'));
  return dirname(denoDir) === resolve(config.DATA_DIR) ? [basename(denoDir)] : [];
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
