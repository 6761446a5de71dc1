import { basename, dirname, join, relative, resolve } from 'node:path';
import type { z } from 'zod';
import {
  AppIdFileSchema,
  EntityFileSchema,
  PackageNameSchema,
  ProjectConfigSchema,
  SeedFileSchema,
} from '../schemas/entity-project';
import { loadAgents } from './agent-loader';
import { loadConnectors } from './connector-loader';
import { loadAuthConfig } from './auth-config-loader';
import { loadCustomIntegrations } from './integration-loader';
import type { EntityDef, Project, SeedSet } from './entity-def';
import { check, jsoncFiles, MISSING, ProjectError, readJsonc } from './project-files';
import { validateRecord } from './record-validator';
import { builtInUserEntity, RESERVED_USER_FIELDS, USER_ENTITY, UserRoleSchema } from './user-entity';

// The loader's result types live in entity-def.ts (shared with user-entity.ts without an import cycle).
export type { EntityDef, Project, SeedSet };
export { ProjectError };

/** projectDirFrom returns `PROJECT_DIR` resolved against the working directory, or the repository's `base44/`. */
export function projectDirFrom(env: NodeJS.ProcessEnv, repoRoot: string): string {
  const dir = env.PROJECT_DIR?.trim();
  return dir ? resolve(dir) : join(repoRoot, 'base44');
}

/**
 * userExtension turns `user.jsonc` into the built-in User with its custom fields. It may add fields and
 * declare the app's `role` enum (as real apps do); redeclaring another built-in, stamp or secret field, or
 * stating rules (the User's rules are built in), is refused.
 */
function userExtension(parsed: z.infer<typeof EntityFileSchema>, shown: string): EntityDef {
  const { role: roleDeclaration, ...properties } = parsed.properties;
  const reserved = Object.keys(properties).find((field) => RESERVED_USER_FIELDS.has(field));
  if (reserved) {
    throw new ProjectError(
      `${shown}: the built-in User entity already has "${reserved}"; user.jsonc may only add custom fields`,
    );
  }
  if (parsed.rls !== undefined) {
    throw new ProjectError(`${shown}: the built-in User entity's rules are fixed; remove "rls"`);
  }
  const role = roleDeclaration === undefined ? undefined : check(UserRoleSchema, roleDeclaration, shown);
  const required = (parsed.required ?? []).filter((field) => field !== 'role');
  return builtInUserEntity({ properties, required }, role);
}

/**
 * projectIdentity is the app's name and id: the name from `config.jsonc`, else the app's `package.json`
 * (next to `base44/`), else the app's folder; the id from `.app.jsonc` when there is one.
 */
async function projectIdentity(dir: string, configName: string | undefined, shown: (file: string) => string) {
  const appFile = join(dir, '.app.jsonc');
  const appJson = await readJsonc(appFile, shown(appFile), true);
  const appId = appJson === MISSING ? undefined : check(AppIdFileSchema, appJson, shown(appFile)).id;
  if (configName) return { name: configName, appId };
  const packageFile = join(dirname(dir), 'package.json');
  const packageJson = await readJsonc(packageFile, shown(packageFile), true);
  const fromPackage = PackageNameSchema.safeParse(packageJson);
  const folder = basename(basename(dir) === 'base44' ? dirname(dir) : dir);
  return { name: fromPackage.success ? fromPackage.data.name : folder, appId };
}

const seedKey = (name: string) => name.toLowerCase().replace(/[-_]/g, '');

/** LoadOptions: inferredDir holds entity schemas the server inferred at start (`DATA_DIR/inferred/entities`). */
export interface LoadOptions {
  inferredDir?: string | undefined;
}

/**
 * loadProject reads and validates `config.jsonc` (optional), `.app.jsonc` (optional), `entities/*.jsonc`,
 * `seed/*.jsonc` and `integrations/*.jsonc` (custom integrations) under dir; then, from inferredDir, the
 * inferred schemas of entities the project does not declare (marked `inferred`).
 */
export async function loadProject(dir: string, options: LoadOptions = {}): Promise<Project> {
  const shown = (file: string) => relative(process.cwd(), file) || file;
  const configFile = join(dir, 'config.jsonc');
  const configJson = await readJsonc(configFile, shown(configFile), true);
  const config = check(ProjectConfigSchema, configJson === MISSING ? {} : configJson, shown(configFile));
  const identity = await projectIdentity(dir, config.name, shown);

  const entities = new Map<string, EntityDef>();
  const entitiesDir = join(dir, config.entitiesDir);
  for (const name of await jsoncFiles(entitiesDir)) {
    const file = join(entitiesDir, name);
    const parsed = check(EntityFileSchema, await readJsonc(file, shown(file)), shown(file));
    const clash = [...entities.keys()].find((known) => known.toLowerCase() === parsed.name.toLowerCase());
    if (clash) throw new ProjectError(`${shown(file)}: entity "${parsed.name}" is declared twice`);
    const missing = (parsed.required ?? []).find((field) => !(field in parsed.properties));
    if (missing) throw new ProjectError(`${shown(file)}: required field "${missing}" is not a property`);
    if (parsed.name.toLowerCase() === USER_ENTITY.toLowerCase()) {
      entities.set(USER_ENTITY, userExtension(parsed, shown(file)));
      continue;
    }
    entities.set(parsed.name, {
      name: parsed.name,
      properties: parsed.properties,
      required: parsed.required ?? [],
      rls: parsed.rls ?? {},
    });
  }

  if (!entities.has(USER_ENTITY)) entities.set(USER_ENTITY, builtInUserEntity());
  if (options.inferredDir) {
    for (const name of await jsoncFiles(options.inferredDir)) {
      const file = join(options.inferredDir, name);
      const parsed = check(EntityFileSchema, await readJsonc(file, shown(file)), shown(file));
      const declared = [...entities.keys()].some(
        (known) => known.toLowerCase() === parsed.name.toLowerCase(),
      );
      if (declared) continue; // the repository declares it now: its own schema wins
      entities.set(parsed.name, {
        name: parsed.name,
        properties: parsed.properties,
        required: parsed.required ?? [],
        rls: parsed.rls ?? {},
        inferred: true,
      });
    }
  }

  const seeds: SeedSet[] = [];
  const seedDir = join(dir, config.seedDir);
  for (const name of await jsoncFiles(seedDir)) {
    const file = join(seedDir, name);
    const key = seedKey(basename(name).replace(/\.jsonc?$/, ''));
    const entity = [...entities.values()].find((candidate) => seedKey(candidate.name) === key);
    if (!entity) throw new ProjectError(`${shown(file)}: no entity matches this seed file's name`);
    if (entity.custom) {
      throw new ProjectError(`${shown(file)}: users cannot be seeded; they join by sign-up or invitation`);
    }
    const records = check(SeedFileSchema, await readJsonc(file, shown(file)), shown(file));
    records.forEach((record, index) => {
      const problem = validateRecord(entity, record, 'create');
      if (problem) throw new ProjectError(`${shown(file)}: record ${index}: ${problem}`);
    });
    seeds.push({ entity: entity.name, file: shown(file), records });
  }
  const customIntegrations = await loadCustomIntegrations(dir, shown);
  const agents = await loadAgents(dir, config.agentsDir, entities, shown);
  const auth = await loadAuthConfig(dir, config.authDir, shown);
  const connectors = await loadConnectors(dir, config.connectorsDir, shown);
  return {
    name: identity.name,
    ...(identity.appId ? { appId: identity.appId } : {}),
    dir,
    entities,
    seeds,
    customIntegrations,
    agents,
    auth,
    connectors,
  };
}
