// Writing inferred entities as `base44/entities/<Name>.jsonc`, the way Base44's GitHub sync names them, with
// a comment saying where they came from and rules that admit signed-in users only. Never overwrites.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'jsonc-parser';
import type { EntityRls } from '../rules/rule-schema';
import type { InferredEntity, JsonSchemaProperty } from './entity-inference';

/**
 * INFERRED_RULES admit signed-in users only, to every operation. On the hosted platform an entity without
 * rules is open to everyone, anonymous visitors included, and the hosted schema may hold rules the repository
 * does not: guessing "open" could publish private records. Every signed-in user has a non-empty id, and
 * anonymous callers fail any condition, so this condition admits exactly the signed-in.
 */
export const INFERRED_RULES: EntityRls = {
  create: { user_condition: { id: { $ne: '' } } },
  read: { user_condition: { id: { $ne: '' } } },
  update: { user_condition: { id: { $ne: '' } } },
  delete: { user_condition: { id: { $ne: '' } } },
};

/** InferredSchemaOptions say who wrote the file (the comment names it) and how many places to list. */
export interface InferredSchemaOptions {
  by?: string;
  maxFilesListed?: number;
}

// File names and paths come from the app's repository: a line break in one would end the comment early.
const oneLine = (text: string) => text.replace(/[\p{Cc}\u2028\u2029]/gu, '?');

/** inline prints a small JSON value on one line, spaced as the project's entity files are (`{ "a": 1 }`). */
function inline(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(inline).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).map(([key, inner]) => `${JSON.stringify(key)}: ${inline(inner)}`);
    return entries.length ? `{ ${entries.join(', ')} }` : '{}';
  }
  return JSON.stringify(value);
}

/** inferredSchemaText is the `.jsonc` text of an inferred entity: the comment, the fields and INFERRED_RULES. */
export function inferredSchemaText(entity: InferredEntity, options: InferredSchemaOptions = {}): string {
  const by = options.by ?? 'npm run cli -- entities infer';
  const max = options.maxFilesListed ?? 10;
  const files = [...new Set(entity.seenIn.map((place) => place.replace(/:\d+$/, '')))];
  const listed = files.slice(0, max).map(oneLine).join(', ');
  const more = files.length > max ? ` and ${files.length - max} more` : '';
  const properties = Object.entries(entity.properties).map(
    ([field, property]: [string, JsonSchemaProperty]) => `    ${JSON.stringify(field)}: ${inline(property)},`,
  );
  const rules = Object.entries(INFERRED_RULES).map(
    ([op, rule]) => `    ${JSON.stringify(op)}: ${inline(rule)},`,
  );
  return [
    `// Inferred by \`${oneLine(by)}\`: the app's repository had no schema for this entity.`,
    `// From: ${listed}${more}.`,
    '// Fields and types are guesses from what the code writes, filters and sorts on (unknown types are strings):',
    '// check them against the app.',
    '// Rules: signed-in users only may create, read, update and delete any record; anonymous visitors nothing.',
    '// (On the hosted platform an entity without rules is open to everyone, and its hosted schema may have rules',
    '// the repository does not show.) To tighten, edit "rls" below, e.g. owner-only reads:',
    '//   "read": { "created_by": "{{user.email}}" }; to open an operation to everyone, set it to true.',
    '{',
    `  "name": ${JSON.stringify(entity.name)},`,
    '  "type": "object",',
    properties.length ? ['  "properties": {', ...properties, '  },'].join('\n') : '  "properties": {},',
    '  "rls": {',
    ...rules,
    '  },',
    '}',
    '',
  ].join('\n');
}

const entityKey = (name: string) => name.toLowerCase().replace(/[-_]/g, '');

/** declaredEntities maps each entity declared in dir (by its normalised name, and by file name) to its file. */
async function declaredEntities(dir: string): Promise<Map<string, string>> {
  const declared = new Map<string, string>();
  const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => /\.jsonc?$/.test(name));
  for (const name of names) {
    const file = join(dir, name);
    declared.set(entityKey(name.replace(/\.jsonc?$/, '')), file);
    const text = await readFile(file, 'utf8').catch(() => '');
    const parsed: unknown = parse(text, [], { allowTrailingComma: true });
    const declaredName = (parsed as { name?: unknown } | undefined)?.name;
    if (typeof declaredName === 'string') declared.set(entityKey(declaredName), file);
  }
  return declared;
}

/**
 * writeInferredSchemas writes `<Name>.jsonc` in entitiesDir for each entity no file there declares (by name,
 * or by file name, letter case and `-`/`_` aside). It never overwrites: a file that exists (even one made a
 * moment ago) is kept. Returns the files written and those kept.
 */
export async function writeInferredSchemas(
  entitiesDir: string,
  entities: readonly InferredEntity[],
  options: InferredSchemaOptions = {},
): Promise<{ written: string[]; kept: string[] }> {
  await mkdir(entitiesDir, { recursive: true });
  const declared = await declaredEntities(entitiesDir);
  const written: string[] = [];
  const kept: string[] = [];
  for (const entity of entities) {
    const existing = declared.get(entityKey(entity.name));
    if (existing) {
      kept.push(existing);
      continue;
    }
    const file = join(entitiesDir, `${entity.name}.jsonc`);
    try {
      // `wx` fails when the file exists: no window between a check and the write.
      await writeFile(file, inferredSchemaText(entity, options), { flag: 'wx' });
      written.push(file);
      declared.set(entityKey(entity.name), file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      kept.push(file);
    }
  }
  return { written, kept };
}
