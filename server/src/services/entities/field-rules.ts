import { isDeepStrictEqual } from 'node:util';
import { ForbiddenError } from '../../lib/errors';
import type { PropertySchema } from '../../schemas/entity-project';
import type { Caller } from '../../rules/caller';
import { isPlainObject, matchesRule } from '../../rules/evaluate-rule';
import type { ReadViewOf } from '../../rules/read-scope';
import { resolveRule } from '../../rules/resolve-rule';

// Field-level write rules (read rules are rules/read-scope.ts). Each changed path takes the closest
// `rls.create`/`rls.update` (else `rls.write`) up the schema; one denied path rejects the whole write,
// naming every denied path. A write never loses values hidden from the caller by a read rule (keepHidden).

/** hiddenLoss is the 403 for a write that would drop values the caller cannot see under path. */
export const hiddenLoss = (path: string[], how: string) =>
  new ForbiddenError(
    `You cannot ${how} ${path.join('.')}: it holds fields hidden from you, which the write would lose`,
  );

/** hiddenField is the 403 for a write naming a path the caller may not read. */
export const hiddenField = (path: string[], how: string) =>
  new ForbiddenError(`You cannot ${how} ${path.join('.')}: the field is hidden from you`);

/** isHiddenPath tells whether a failing read rule hides path (or a parent of it) from the caller. */
export function isHiddenPath(path: string[], view: ReadViewOf): boolean {
  return view(path, true) === undefined;
}

/** holdsHidden tells whether stored (the value at path) is, or holds, a value hidden from the caller. */
export function holdsHidden(stored: unknown, path: string[], view: ReadViewOf): boolean {
  return stored !== undefined && !sameValue(view(path, stored), stored);
}

/**
 * refuseHiddenWithin throws a 403 when written, to be stored at path, names a path hidden from the
 * caller. Refused whether or not a value is stored there, so the answer says nothing about hidden data.
 */
export function refuseHiddenWithin(written: unknown, path: string[], view: ReadViewOf, how = 'write'): void {
  if (isHiddenPath(path, view)) throw hiddenField(path, how);
  if (Array.isArray(written)) {
    written.forEach((item, index) => refuseHiddenWithin(item, [...path, String(index)], view, how));
  } else if (isPlainObject(written)) {
    for (const [key, value] of Object.entries(written)) refuseHiddenWithin(value, [...path, key], view, how);
  }
}

/**
 * keepHidden returns what to store at path when a caller writes `written` over `stored`, so that values
 * hidden from the caller (field read rules, through view) are never lost to a client writing back what it
 * read. A hidden key the written object omits is kept; an array whose elements hold hidden keys must keep
 * those elements as read (in place) or the write is refused (403): to add or remove elements there,
 * `$push`/`$addToSet`/`$pull` apply to the stored array. Writing a hidden path (even one with nothing
 * stored) or replacing a value holding hidden keys by one of another kind (an object by null) is a 403.
 */
export function keepHidden(stored: unknown, written: unknown, path: string[], view: ReadViewOf): unknown {
  if (isHiddenPath(path, view)) throw hiddenField(path, 'write');
  if (!holdsHidden(stored, path, view)) {
    refuseHiddenWithin(written, path, view);
    return written;
  }
  const visible = view(path, stored);
  if (sameValue(written, visible)) return stored;
  if (isPlainObject(stored) && isPlainObject(written)) {
    const out: Record<string, unknown> = { ...written };
    for (const [key, value] of Object.entries(written)) {
      if (!Object.hasOwn(stored, key)) refuseHiddenWithin(value, [...path, key], view);
    }
    for (const [key, value] of Object.entries(stored)) {
      const inner = [...path, key];
      if (Object.hasOwn(written, key)) {
        out[key] = keepHidden(value, written[key], inner, view);
        continue;
      }
      // A key the written object omits: hidden ones are kept; a visible one holding hidden keys keeps
      // just those (its visible part was removed on purpose); else it is gone.
      const seen = view(inner, value);
      if (seen === undefined) out[key] = value;
      else if (!sameValue(seen, value)) {
        if (!isPlainObject(value)) throw hiddenLoss(inner, 'remove');
        const kept = keepHidden(value, {}, inner, view) as Record<string, unknown>;
        if (Object.keys(kept).length > 0) out[key] = kept;
      }
    }
    return out;
  }
  if (Array.isArray(stored) && Array.isArray(written)) {
    const out = [...written];
    stored.forEach((element, index) => {
      const inner = [...path, String(index)];
      const seen = view(inner, element);
      if (sameValue(seen, element)) {
        if (index < written.length) refuseHiddenWithin(written[index], inner, view);
        return;
      }
      if (index < written.length && sameValue(written[index], seen)) out[index] = element;
      else throw hiddenLoss(path, 'replace or remove elements of');
    });
    for (let index = stored.length; index < written.length; index += 1) {
      refuseHiddenWithin(written[index], [...path, String(index)], view);
    }
    return out;
  }
  throw hiddenLoss(path, 'replace');
}

/** sameValue compares JSON values (key order aside); missing and null are the same. */
function sameValue(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(a ?? null, b ?? null);
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

/** deniedFieldsError is the 403 naming every field a write may not set (create) or modify (update). */
export function deniedFieldsError(denied: string[], mode: 'create' | 'update'): ForbiddenError {
  const verb = mode === 'create' ? 'set' : 'modify';
  return new ForbiddenError(`You're not allowed to ${verb} the following fields: ${denied.join(', ')}`);
}

/** refuseDeniedWrites throws deniedFieldsError when deniedWrites finds any field. */
export function refuseDeniedWrites(input: Parameters<typeof deniedWrites>[0]): void {
  const denied = deniedWrites(input);
  if (denied.length) throw deniedFieldsError(denied, input.mode);
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
