// `npm run cli -- entities infer [--app PATH] [--dry-run]`: writes a schema for each entity an app's code uses
// but its repository does not declare (Base44's GitHub sync writes only some), and prints what it found.
import { join, relative, resolve } from 'node:path';
import { ProjectConfigSchema } from '../../schemas/entity-project';
import { inferEntities, type InferredEntity } from '../../project/entity-inference';
import { writeInferredSchemas } from '../../project/inferred-schema';
import { check, MISSING, readJsonc } from '../../project/project-files';

const PLACES_SHOWN = 3;

/** EntitiesInferResult is what the command did: the entities found, the files written and kept, what was skipped. */
export interface EntitiesInferResult {
  entities: InferredEntity[];
  written: string[];
  kept: string[];
  skipped: { file: string; reason: string }[];
}

/** fieldsText lists an entity's fields as `name:type` (`due_date:string/date`). */
function fieldsText(entity: InferredEntity): string {
  const fields = Object.entries(entity.properties).map(([field, property]) => {
    const type = Array.isArray(property.type) ? property.type.join('|') : (property.type ?? 'string');
    return `${field}:${type}${property.format ? `/${property.format}` : ''}`;
  });
  return fields.length ? fields.join(', ') : '(no fields seen)';
}

/** summaryTable is the terminal table: entity, fields, where seen (a few places). */
export function summaryTable(entities: readonly InferredEntity[]): string {
  const rows = entities.map((entity) => {
    const places = entity.seenIn.slice(0, PLACES_SHOWN).join(', ');
    const more = entity.seenIn.length > PLACES_SHOWN ? ` (+${entity.seenIn.length - PLACES_SHOWN})` : '';
    return [entity.name, fieldsText(entity), `${places}${more}`];
  });
  const all = [['entity', 'fields', 'seen at'], ...rows];
  const widths = [0, 1].map((column) => Math.max(...all.map((row) => (row[column] ?? '').length)));
  return all
    .map((row) =>
      row.map((cell, column) => (column < 2 ? cell.padEnd(widths[column] ?? 0) : cell)).join('  '),
    )
    .join('\n');
}

/** entitiesDirOf is where the app's entity files live: `base44/<entitiesDir of config.jsonc>`. */
async function entitiesDirOf(appDir: string): Promise<string> {
  const configFile = join(appDir, 'base44', 'config.jsonc');
  const json = await readJsonc(configFile, relative(process.cwd(), configFile), true);
  const config = check(ProjectConfigSchema, json === MISSING ? {} : json, configFile);
  return join(appDir, 'base44', config.entitiesDir);
}

/** entitiesInferCommand infers the entities of the app at appDir and prints its report with print. */
export async function entitiesInferCommand(input: {
  appDir: string;
  dryRun: boolean;
  print: (text: string) => void;
}): Promise<EntitiesInferResult> {
  const appDir = resolve(input.appDir);
  const { entities, skipped } = await inferEntities(appDir);
  const entitiesDir = await entitiesDirOf(appDir);
  const shown = (file: string) => relative(appDir, file);
  const { print } = input;
  print(
    entities.length ? summaryTable(entities) : `No entity use found under ${appDir}/src or base44/functions.`,
  );
  for (const { file, reason } of skipped) print(`skipped ${file}: ${reason}`);
  if (input.dryRun) {
    print(`--dry-run: nothing written (entity files go to ${shown(entitiesDir)}/).`);
    return { entities, written: [], kept: [], skipped };
  }
  const { written, kept } = await writeInferredSchemas(entitiesDir, entities);
  for (const file of written) print(`wrote ${shown(file)}`);
  for (const file of kept) print(`kept ${shown(file)} (already there; never overwritten)`);
  if (written.length > 0) {
    print(
      'Inferred entities admit signed-in users only (create, read, update, delete). Check the fields, and edit ' +
        'each file\'s "rls" block to tighten or open it: the hosted schema may have had rules the repository lacks.',
    );
  }
  return { entities, written: written.map(shown), kept: kept.map(shown), skipped };
}
