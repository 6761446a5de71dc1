// Entity inference: the entities an app's code uses and the fields it names, for apps whose repository
// lacks some entity schemas (Base44's GitHub sync writes only some). Read-only: writing is inferred-schema.ts.
import { readFile } from 'node:fs/promises';
import type { File } from '@babel/types';
import { ENTITY_NAME, FIELD_NAME } from '../schemas/entity-project';
import { exportedEntityHandles, extractSightings } from './entity-extraction';
import { BUILT_IN_FIELDS, propertyFor, type Evidence, type JsonSchemaProperty } from './field-types';
import { listSourceFiles, type SkippedFile, type SourceFile } from './source-files';
import { parseSource } from './source-ast';

export type { JsonSchemaProperty } from './field-types';
export type { SkippedFile } from './source-files';

/** InferredEntity is one entity the code uses: its fields' inferred types and where it is named (`file:line`). */
export interface InferredEntity {
  name: string;
  properties: Record<string, JsonSchemaProperty>;
  seenIn: string[];
}

/** InferenceResult is what inferEntities found, and the files it could not read. */
export interface InferenceResult {
  entities: InferredEntity[];
  skipped: SkippedFile[];
}

// A module named `entities` (`src/api/entities.js`), where the older template re-exports entity handles.
const ENTITIES_FILE = /(^|\/)entities\.[jt]sx?$/;

// The built-in User has fixed rules and fields; its custom fields are declared in User.jsonc by hand.
const BUILT_IN_ENTITIES = new Set(['user']);

/** EntityDraft gathers one entity's sightings across files before the types are decided. */
interface EntityDraft {
  fields: Map<string, Evidence[]>;
  seenIn: Set<string>;
}

/** byPlace orders `file:line` places by file, then by line as a number. */
/** MAX_EVIDENCE_PER_FIELD bounds what is kept of one field's sightings (the type needs a few). */
const MAX_EVIDENCE_PER_FIELD = 100;

function byPlace(a: string, b: string): number {
  const [fileA = '', lineA = '0'] = a.split(/:(?=\d+$)/);
  const [fileB = '', lineB = '0'] = b.split(/:(?=\d+$)/);
  return fileA === fileB ? Number(lineA) - Number(lineB) : fileA < fileB ? -1 : 1;
}

/**
 * inferEntities reads the app at appDir (`src/` and `base44/functions/`, see source-files.ts for the bounds)
 * and returns every entity its code names with the fields it writes, filters or sorts on, sorted by name.
 * The built-in User is left out. A file that cannot be read or parsed is listed in skipped.
 *
 * @example
 * const { entities } = await inferEntities('/srv/my-app');
 * // [{ name: 'Todo', properties: { title: { type: 'string' }, due_date: { type: 'string', format: 'date' } }, seenIn: ['src/App.jsx:12'] }]
 */
export async function inferEntities(appDir: string): Promise<InferenceResult> {
  const { files, skipped } = await listSourceFiles(appDir);
  /** parsed reads and parses one file, or lists it in skipped (once); null also for a file naming no entity. */
  const parsed = async (file: SourceFile, report = true): Promise<File | null> => {
    const text = await readFile(file.path, 'utf8').catch(() => null);
    if (text === null) {
      if (report) skipped.push({ file: file.shown, reason: 'cannot be read' });
      return null;
    }
    // A file that never says "entities" can name no entity (handles are imported from an `entities` module).
    if (!text.includes('entities')) return null;
    try {
      return parseSource(file.path, text);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (report) skipped.push({ file: file.shown, reason: `cannot be parsed: ${message}` });
      return null;
    }
  };
  // A file whose walk fails (a shape the extractor did not expect) is reported and skipped, never fatal:
  // the server runs this at start.
  const readOrSkip = <T>(file: SourceFile, read: () => T): T | null => {
    try {
      return read();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      skipped.push({ file: file.shown, reason: `cannot be read: ${message.slice(0, 200)}` });
      return null;
    }
  };
  // Handles are imported only from modules named `entities`: those are read first, then every file once,
  // one syntax tree at a time (a big app's trees would not all fit in memory).
  const handles = new Map<string, string>();
  const handleModules = files.filter((file) => ENTITIES_FILE.test(file.shown));
  for (const file of handleModules) {
    const ast = await parsed(file);
    if (!ast) continue;
    const exported = readOrSkip(file, () => exportedEntityHandles(ast));
    for (const [name, entity] of exported ?? []) handles.set(name, entity);
  }
  const drafts = new Map<string, EntityDraft>();
  for (const file of files) {
    const ast = await parsed(file, !handleModules.includes(file));
    if (!ast) continue;
    for (const sighting of readOrSkip(file, () => extractSightings(ast, handles)) ?? []) {
      if (!ENTITY_NAME.test(sighting.entity) || BUILT_IN_ENTITIES.has(sighting.entity.toLowerCase()))
        continue;
      const draft = drafts.get(sighting.entity) ?? { fields: new Map(), seenIn: new Set() };
      drafts.set(sighting.entity, draft);
      draft.seenIn.add(`${file.shown}:${sighting.line}`);
      for (const { field, evidence } of sighting.fields) {
        if (!FIELD_NAME.test(field) || BUILT_IN_FIELDS.has(field)) continue;
        const seen = draft.fields.get(field) ?? [];
        draft.fields.set(field, seen);
        if (seen.length < MAX_EVIDENCE_PER_FIELD) seen.push(evidence);
      }
    }
  }
  const entities = [...drafts.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, draft]) => ({
      name,
      properties: Object.fromEntries(
        [...draft.fields.entries()]
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .map(([field, sightings]) => [field, propertyFor(field, sightings)]),
      ),
      seenIn: [...draft.seenIn].sort(byPlace),
    }));
  return { entities, skipped };
}
