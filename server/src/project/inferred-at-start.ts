// `npm start -- --app PATH`: the entities the app's code uses but its repository does not declare (Base44's
// GitHub sync writes only some schemas) are inferred from the code into DATA_DIR/inferred/entities (never
// into the app's repository) and served, admitting signed-in users only. INFER_ENTITIES=off leaves them
// undeclared (each answers 404), as a server without --app does.
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { ServerConfig } from '../config/server-env';
import { loadProject, type Project } from './project-loader';
import { writeInferredSchemas } from './inferred-schema';

/** inferredEntitiesDir is where the server keeps the schemas it inferred. */
export const inferredEntitiesDir = (dataDir: string) => join(dataDir, 'inferred', 'entities');

/**
 * withInferredEntities returns the project with the inferred schemas of the entities it lacks, when the
 * server hosts an app repository (APP_SOURCE_DIR) and INFER_ENTITIES is on; else the project unchanged.
 */
export async function withInferredEntities(
  project: Project,
  config: Pick<ServerConfig, 'APP_SOURCE_DIR' | 'INFER_ENTITIES' | 'DATA_DIR'>,
  log: Logger,
): Promise<Project> {
  if (!config.APP_SOURCE_DIR || config.INFER_ENTITIES === 'off') return project;
  const declared = new Set([...project.entities.keys()].map((name) => name.toLowerCase()));
  // Loaded only here: the source parser (@babel/parser) is a tenth of a second of every other start.
  const { inferEntities } = await import('./entity-inference');
  const { entities, skipped } = await inferEntities(config.APP_SOURCE_DIR);
  if (skipped.length > 0) {
    log.info({ skipped: skipped.slice(0, 20) }, `entity inference skipped ${skipped.length} source files`);
  }
  const missing = entities.filter((entity) => !declared.has(entity.name.toLowerCase()));
  const dir = inferredEntitiesDir(config.DATA_DIR);
  // Never overwritten: an operator's edits (tightened rules) survive restarts.
  if (missing.length > 0)
    await writeInferredSchemas(dir, missing, { by: 'the server at start (npm start -- --app)' });
  const withInferred = await loadProject(project.dir, { inferredDir: dir });
  const served = [...withInferred.entities.values()]
    .filter((entity) => entity.inferred)
    .map((entity) => entity.name);
  if (served.length > 0) {
    log.warn(
      { entities: served, dir },
      `serving entities inferred from the app's code (${served.join(', ')}), as its repository does not declare them. ` +
        'They admit signed-in users only: the hosted schema may hold rules the repository lacks. ' +
        `Edit their "rls" in ${dir} to tighten or open them, or write them into the app's repository with ` +
        '`npm run cli -- entities infer --app PATH`; INFER_ENTITIES=off turns this off.',
    );
  }
  return withInferred;
}
