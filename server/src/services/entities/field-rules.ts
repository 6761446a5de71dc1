import type { PropertySchema } from '../../schemas/entity-project';
import { matchesRule, resolveRule, type Caller, type ResolvedRule } from './entity-rules';

// Field-level rules. Read: a top-level field whose `rls.read` fails for the record is absent from the
// response, and the caller's query and sort see it as missing too (no side channel). Write: each changed
// path takes the closest `rls.create`/`rls.update` (else `rls.write`) up the schema; one denied path
// rejects the whole write, naming every denied path.

/** readVisibility returns each top-level field with a read rule, resolved for caller. */
export function readVisibility(
  properties: Record<string, PropertySchema>,
  caller: Caller,
): Map<string, ResolvedRule> {
  const visibility = new Map<string, ResolvedRule>();
  for (const [field, schema] of Object.entries(properties)) {
    if (schema.rls?.read === undefined) continue;
    const rule = resolveRule(schema.rls.read, caller);
    if (rule !== true) visibility.set(field, rule);
  }
  return visibility;
}

/** stripHidden removes the fields record may not show, given the visibility from readVisibility. */
export function stripHidden(
  record: Record<string, unknown>,
  visibility: Map<string, ResolvedRule>,
): Record<string, unknown> {
  if (visibility.size === 0) return record;
  return Object.fromEntries(
    Object.entries(record).filter(([field]) => {
      const rule = visibility.get(field);
      return rule === undefined || matchesRule(record, rule);
    }),
  );
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function collectDenied(
  properties: Record<string, PropertySchema>,
  changes: Record<string, unknown>,
  before: Record<string, unknown>,
  inherited: PropertySchema['rls'],
  prefix: string,
  allowed: (rls: NonNullable<PropertySchema['rls']>) => boolean,
  denied: string[],
): void {
  for (const [field, schema] of Object.entries(properties)) {
    if (!Object.hasOwn(changes, field)) continue;
    const value = changes[field];
    const previous = before[field];
    const rls = schema.rls ?? inherited;
    const path = `${prefix}.${field}`;
    if (schema.properties && isPlainObject(value)) {
      const prior = isPlainObject(previous) ? previous : {};
      collectDenied(schema.properties, value, prior, rls, path, allowed, denied);
      continue;
    }
    if (rls && !sameValue(value, previous) && !allowed(rls)) denied.push(path);
  }
}

/**
 * deniedWrites lists the `data.<path>` fields of changes the caller may not set (create) or modify
 * (update); context is the record the rules read (the new record with its owner on create, the stored
 * record on update) and before the current values (empty on create).
 */
export function deniedWrites(input: {
  properties: Record<string, PropertySchema>;
  changes: Record<string, unknown>;
  before: Record<string, unknown>;
  context: Record<string, unknown>;
  mode: 'create' | 'update';
  caller: Caller;
}): string[] {
  if (input.caller.kind === 'service') return [];
  const denied: string[] = [];
  const allowed = (rls: NonNullable<PropertySchema['rls']>) => {
    const rule = input.mode === 'create' ? (rls.create ?? rls.write) : (rls.update ?? rls.write);
    if (rule === undefined) return true;
    return matchesRule(input.context, resolveRule(rule, input.caller));
  };
  collectDenied(input.properties, input.changes, input.before, undefined, 'data', allowed, denied);
  return denied;
}
