import { readdir, readFile } from 'node:fs/promises';
import { basename, join, relative, resolve } from 'node:path';
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import type { z } from 'zod';
import {
  EntityFileSchema,
  ProjectConfigSchema,
  SeedFileSchema,
  type EntityRls,
  type PropertySchema,
} from '../../schemas/entity-project';
import { validateRecord } from './record-validator';

/** EntityDef is one entity of the app project, as the services use it. */
export interface EntityDef {
  name: string;
  properties: Record<string, PropertySchema>;
  required: string[];
  rls: EntityRls;
}

/** SeedSet is the records of one seed file, already validated against their entity. */
export interface SeedSet {
  entity: string;
  file: string;
  records: Record<string, unknown>[];
}

/** Project is the loaded app project: its name, entities (by name) and seeds. */
export interface Project {
  name: string;
  dir: string;
  entities: Map<string, EntityDef>;
  seeds: SeedSet[];
}

/** ProjectError says a project file is missing or invalid; the message names the file and the problem. */
export class ProjectError extends Error {
  override name = 'ProjectError';
}

/** projectDirFrom returns `PROJECT_DIR` resolved against the working directory, or the repository's `base44/`. */
export function projectDirFrom(env: NodeJS.ProcessEnv, repoRoot: string): string {
  const dir = env.PROJECT_DIR?.trim();
  return dir ? resolve(dir) : join(repoRoot, 'base44');
}

async function readJsonc(file: string, shown: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new ProjectError(`${shown}: cannot be read`);
  }
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const first = errors[0] as ParseError;
    const line = text.slice(0, first.offset).split('\n').length;
    throw new ProjectError(`${shown}: invalid JSONC at line ${line} (${printParseErrorCode(first.error)})`);
  }
  return value;
}

function check<S extends z.ZodType>(schema: S, value: unknown, shown: string): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue?.path.length ? `${issue.path.map(String).join('.')}: ` : '';
  throw new ProjectError(`${shown}: ${where}${issue?.message ?? 'invalid'}`);
}

async function jsoncFiles(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names.filter((name) => /\.jsonc?$/.test(name)).sort();
}

const seedKey = (name: string) => name.toLowerCase().replace(/[-_]/g, '');

/** loadProject reads and validates `config.jsonc`, `entities/*.jsonc` and `seed/*.jsonc` under dir. */
export async function loadProject(dir: string): Promise<Project> {
  const shown = (file: string) => relative(process.cwd(), file) || file;
  const configFile = join(dir, 'config.jsonc');
  const config = check(
    ProjectConfigSchema,
    await readJsonc(configFile, shown(configFile)),
    shown(configFile),
  );

  const entities = new Map<string, EntityDef>();
  const entitiesDir = join(dir, config.entitiesDir);
  for (const name of await jsoncFiles(entitiesDir)) {
    const file = join(entitiesDir, name);
    const parsed = check(EntityFileSchema, await readJsonc(file, shown(file)), shown(file));
    const clash = [...entities.keys()].find((known) => known.toLowerCase() === parsed.name.toLowerCase());
    if (clash) throw new ProjectError(`${shown(file)}: entity "${parsed.name}" is declared twice`);
    if (parsed.name.toLowerCase() === 'user') {
      throw new ProjectError(`${shown(file)}: the built-in User entity cannot be redeclared here yet`);
    }
    const missing = (parsed.required ?? []).find((field) => !(field in parsed.properties));
    if (missing) throw new ProjectError(`${shown(file)}: required field "${missing}" is not a property`);
    entities.set(parsed.name, {
      name: parsed.name,
      properties: parsed.properties,
      required: parsed.required ?? [],
      rls: parsed.rls ?? {},
    });
  }

  const seeds: SeedSet[] = [];
  const seedDir = join(dir, config.seedDir);
  for (const name of await jsoncFiles(seedDir)) {
    const file = join(seedDir, name);
    const key = seedKey(basename(name).replace(/\.jsonc?$/, ''));
    const entity = [...entities.values()].find((candidate) => seedKey(candidate.name) === key);
    if (!entity) throw new ProjectError(`${shown(file)}: no entity matches this seed file's name`);
    const records = check(SeedFileSchema, await readJsonc(file, shown(file)), shown(file));
    records.forEach((record, index) => {
      const problem = validateRecord(entity, record, 'create');
      if (problem) throw new ProjectError(`${shown(file)}: record ${index}: ${problem}`);
    });
    seeds.push({ entity: entity.name, file: shown(file), records });
  }
  return { name: config.name, dir, entities, seeds };
}
