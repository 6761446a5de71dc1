import type { Caller } from './caller';
import { isPlainObject, matchesRule, type ParamSink, type ResolvedRule } from './evaluate-rule';
import { resolveRule } from './resolve-rule';
import type { Rule } from './rule-schema';

// Field-level read rules, resolved for a caller and evaluated two ways side by side: in JS (stripHidden,
// readView: a record in hand) and in SQL (visibleJsonSql: what a query, sort, distinct or aggregate reads).
// A field whose `rls.read` fails for the record is absent, at any depth (inside object properties and
// inside array items' object properties), so neither the answer nor a query can probe it. Read rules do
// not inherit: a parent's failing rule hides the whole parent, a nested rule hides only its own key, and
// every rule is decided on the whole stored record.

/**
 * ReadScope maps a field path to the rule under which its value may be seen (resolved for one caller).
 * Paths are dotted (`meta.owner`); the segment ITEMS stands for every element of an array (`lines.[].cost`).
 */
export type ReadScope = Map<string, ResolvedRule>;

/** ITEMS is the ReadScope path segment for "each array element" (field names cannot contain `[`). */
export const ITEMS = '[]';

/** FieldRules is what read scopes need of an entity's property schemas. */
export interface FieldRules {
  rls?: { read?: Rule | undefined } | undefined;
  properties?: Record<string, FieldRules> | undefined;
  items?: FieldRules | undefined;
}

function collectReadRules(
  properties: Record<string, FieldRules>,
  prefix: string,
  caller: Caller,
  scope: ReadScope,
): void {
  for (const [field, schema] of Object.entries(properties)) {
    const path = prefix ? `${prefix}.${field}` : field;
    if (schema.rls?.read !== undefined) {
      const rule = resolveRule(schema.rls.read, caller);
      if (rule !== true) scope.set(path, rule);
    }
    let inner: FieldRules | undefined = schema;
    let innerPath = path;
    // Array items (arrays of arrays too) take the `[]` segment: the rule applies to every element.
    while (inner?.items) {
      inner = inner.items;
      innerPath = `${innerPath}.${ITEMS}`;
    }
    if (inner?.properties) collectReadRules(inner.properties, innerPath, caller, scope);
  }
}

/**
 * readScope returns the path (dotted, `[]` for array elements) of each field with a read rule that does
 * not simply admit caller, resolved for caller.
 */
export function readScope(properties: Record<string, FieldRules>, caller: Caller): ReadScope {
  const scope: ReadScope = new Map();
  if (caller.kind !== 'service') collectReadRules(properties, '', caller, scope);
  return scope;
}

/** covers says whether a read rule's path and a data path agree on every segment they share. */
export function covers(rulePath: string[], path: string[]): boolean {
  const shared = Math.min(rulePath.length, path.length);
  for (let i = 0; i < shared; i += 1) {
    // `[]` matches any segment: on an array only an index resolves, so this errs on the side of hiding.
    if (rulePath[i] !== ITEMS && rulePath[i] !== path[i]) return false;
  }
  return true;
}

// ---- JS: a record in hand ----

/** withoutPath is value without the key at path (relative; `[]` for each element). */
export function withoutPath(value: unknown, path: string[]): unknown {
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

/** stripHidden removes the fields record may not show, given the caller's read scope. */
export function stripHidden(record: Record<string, unknown>, scope: ReadScope): Record<string, unknown> {
  let visible = record;
  for (const [path, rule] of scope) {
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
  scope: ReadScope,
): (path: string[], value: unknown) => unknown {
  const failing = [...scope]
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

// ---- SQL: the same, inside the store's query ----

/** ScopeSql is what the SQL side needs from the query compiler it runs inside. */
export interface ScopeSql {
  params: ParamSink;
  /** alias returns a fresh name for a scalar subquery, so nested guards and strips never shadow each other. */
  alias(): string;
  /** guard compiles a resolved rule into a SQL boolean on the record. */
  guard(rule: ResolvedRule): string;
}

/** stripSql is json without the value at rest (relative; `[]` for each element), type-checked per step. */
function stripSql(json: string, rest: string[], sql: ScopeSql): string {
  const [head, ...tail] = rest;
  if (head === undefined || (head === ITEMS && tail.length === 0)) return json;
  const name = sql.alias();
  const x = `${name}.x`;
  let body: string;
  if (head === ITEMS) {
    const element = sql.alias();
    body =
      `CASE WHEN jsonb_typeof(${x}) = 'array' THEN (SELECT COALESCE(jsonb_agg(` +
      `${stripSql(`${element}.v`, tail, sql)} ORDER BY ${element}.o), '[]'::jsonb) ` +
      `FROM jsonb_array_elements(${x}) WITH ORDINALITY AS ${element}(v, o)) ELSE ${x} END`;
  } else {
    const key = `${sql.params.add(head)}::text`;
    body =
      tail.length === 0
        ? `CASE WHEN jsonb_typeof(${x}) = 'object' THEN ${x} - ${key} ELSE ${x} END`
        : `CASE WHEN jsonb_typeof(${x}) = 'object' AND ${x} ? ${key} ` +
          `THEN jsonb_set(${x}, ARRAY[${key}], ${stripSql(`(${x} -> ${key})`, tail, sql)}) ELSE ${x} END`;
  }
  return `(SELECT ${body} FROM (SELECT ${json} AS x) AS ${name})`;
}

/**
 * visibleJsonSql is the value at a record-level data path as the caller may see it, or null when no read
 * rule touches the path. A rule on the path or above it makes the value missing unless the rule holds; a
 * rule below it removes that key (from each element, under `[]`) unless the rule holds.
 */
export function visibleJsonSql(path: string[], scope: ReadScope, sql: ScopeSql): string | null {
  const above: string[] = [];
  const below: { rest: string[]; rule: ResolvedRule }[] = [];
  for (const [field, rule] of scope) {
    const rulePath = field.split('.');
    if (rule === true || !covers(rulePath, path)) continue;
    if (rulePath.length <= path.length) above.push(sql.guard(rule));
    else below.push({ rest: rulePath.slice(path.length), rule });
  }
  if (above.length === 0 && below.length === 0) return null;
  let json = `(data #> ${sql.params.add(path)}::text[])`;
  for (const { rest, rule } of below) {
    const name = sql.alias();
    const stripped = stripSql(`${name}.x`, rest, sql);
    json = `(SELECT CASE WHEN ${sql.guard(rule)} THEN ${name}.x ELSE ${stripped} END FROM (SELECT ${json} AS x) AS ${name})`;
  }
  return above.length === 0 ? json : `(CASE WHEN ${above.join(' AND ')} THEN ${json} END)`;
}
