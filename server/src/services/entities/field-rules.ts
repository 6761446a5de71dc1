import { isDeepStrictEqual } from 'node:util';
import { ForbiddenError } from '../../lib/errors';
import type { PropertySchema } from '../../schemas/entity-project';
import { covers, ITEMS } from '../../store/entity-filter-sql';
import { matchesRule, resolveRule, type Caller, type ResolvedRule } from './entity-rules';

// Field-level rules. Read: a field whose `rls.read` fails for the record is absent from the response, at
// any depth (inside object properties and inside array items' object properties), and the caller's query
// and sort see it as missing too (no side channel). Read rules do not inherit the way write rules do:
// a parent's failing rule hides the whole parent (so everything under it), a nested rule hides only its
// own key, and both are decided on the whole record. Write: each changed path takes the closest
// `rls.create`/`rls.update` (else `rls.write`) up the schema; one denied path rejects the whole write,
// naming every denied path.

function collectReadRules(
  properties: Record<string, PropertySchema>,
  prefix: string,
  caller: Caller,
  visibility: Map<string, ResolvedRule>,
): void {
  for (const [field, schema] of Object.entries(properties)) {
    const path = prefix ? `${prefix}.${field}` : field;
    if (schema.rls?.read !== undefined) {
      const rule = resolveRule(schema.rls.read, caller);
      if (rule !== true) visibility.set(path, rule);
    }
    let inner: PropertySchema | undefined = schema;
    let innerPath = path;
    // Array items (arrays of arrays too) take the `[]` segment: the rule applies to every element.
    while (inner?.items) {
      inner = inner.items;
      innerPath = `${innerPath}.${ITEMS}`;
    }
    if (inner?.properties) collectReadRules(inner.properties, innerPath, caller, visibility);
  }
}

/**
 * readVisibility returns the path (dotted, `[]` for array elements) of each field with a read rule that
 * does not simply admit caller, resolved for caller.
 */
export function readVisibility(
  properties: Record<string, PropertySchema>,
  caller: Caller,
): Map<string, ResolvedRule> {
  const visibility = new Map<string, ResolvedRule>();
  if (caller.kind !== 'service') collectReadRules(properties, '', caller, visibility);
  return visibility;
}

function withoutPath(value: unknown, path: string[]): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return value;
  if (head === ITEMS) {
    return Array.isArray(value) ? value.map((item) => withoutPath(item, rest)) : value;
  }
  if (!isPlainObject(value) || !Object.hasOwn(value, head)) return value;
  if (rest.length === 0) return Object.fromEntries(Object.entries(value).filter(([key]) => key !== head));
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key, key === head ? withoutPath(inner, rest) : inner]),
  );
}

/** stripHidden removes the fields record may not show, given the visibility from readVisibility. */
export function stripHidden(
  record: Record<string, unknown>,
  visibility: Map<string, ResolvedRule>,
): Record<string, unknown> {
  let visible = record;
  for (const [path, rule] of visibility) {
    // Every rule is decided on the stored record, not on what earlier rules left of it (as in the SQL).
    if (matchesRule(record, rule)) continue;
    visible = withoutPath(visible, path.split('.')) as Record<string, unknown>;
  }
  return visible;
}

/**
 * readView returns, for record, a function giving the value at a data path as the caller may read it:
 * undefined when a failing rule hides the path or a parent, else the value without its hidden keys.
 */
export function readView(
  record: Record<string, unknown>,
  visibility: Map<string, ResolvedRule>,
): (path: string[], value: unknown) => unknown {
  const failing = [...visibility]
    .filter(([, rule]) => !matchesRule(record, rule))
    .map(([path]) => path.split('.'));
  return (path, value) => {
    let visible = value;
    for (const rulePath of failing) {
      if (!covers(rulePath, path)) continue;
      if (rulePath.length <= path.length) return undefined;
      visible = withoutPath(visible, rulePath.slice(path.length));
    }
    return visible;
  };
}

/** ReadViewOf is what readView returns: the value at a data path as the caller may read it. */
export type ReadViewOf = ReturnType<typeof readView>;

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
