// A resolved rule's meaning, written once per evaluator and side by side: in JS, on a record in hand
// (realtime delivery, create checks, field rules), and in SQL, inside the store's WHERE clause (reads,
// writes by query, paging). A resolved rule is a condition in the entity query language using only the
// operators below and `$and/$or/$nor`; the store's query compiler takes the SQL of these operators from
// here. services/entities/rules-agree.test.ts checks both evaluators give the same answer on PGlite and PostgreSQL.

/** ResolvedRule is true (every record), false (none) or a condition on the record. */
export type ResolvedRule = boolean | Record<string, unknown>;

/** RuleOperator is an operator a rule may use on a field (anything else is a query-only operator). */
export type RuleOperator = '$eq' | '$ne' | '$in' | '$nin' | '$all';

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** readPath is the value at a dotted path through plain objects, or undefined. */
export function readPath(source: unknown, path: string): unknown {
  let current: unknown = source;
  for (const key of path.split('.')) {
    if (!isPlainObject(current) || !Object.hasOwn(current, key)) return undefined;
    current = current[key];
  }
  return current;
}

// ---- JS: a record in hand (stamps and fields flat, as the API presents it) ----

/** sameJson is jsonb equality: arrays in order, objects whatever their key order, scalars by value. */
function sameJson(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item, i) => sameJson(item, b[i]))
    );
  }
  if (isPlainObject(a) || isPlainObject(b)) {
    if (!isPlainObject(a) || !isPlainObject(b)) return false;
    const keys = Object.keys(b);
    return (
      Object.keys(a).length === keys.length &&
      keys.every((key) => Object.hasOwn(a, key) && sameJson(a[key], b[key]))
    );
  }
  return a === b;
}

/** jsonContains is jsonb `@>` (PostgreSQL §8.14.3): an array holds each item somewhere, an object each key. */
function jsonContains(a: unknown, b: unknown): boolean {
  if (Array.isArray(b)) {
    if (!Array.isArray(a)) return false;
    return b.every((item) =>
      typeof item === 'object' && item !== null
        ? a.some((element) => jsonContains(element, item))
        : a.some((element) => element === item),
    );
  }
  if (isPlainObject(b)) {
    return (
      isPlainObject(a) &&
      Object.entries(b).every(([key, v]) => Object.hasOwn(a, key) && jsonContains(a[key], v))
    );
  }
  return a === b;
}

/**
 * equalsValue is `$eq` in JS: null matches missing; an object or array must equal the value; a scalar
 * matches the value or, in an array value, one of its elements.
 */
function equalsValue(actual: unknown, expected: unknown): boolean {
  if (expected === null) return actual === null || actual === undefined;
  if (typeof expected === 'object') return sameJson(actual, expected);
  return actual === expected || (Array.isArray(actual) && actual.includes(expected));
}

const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** matchesOperator is each rule operator in JS. */
const matchesOperator: Record<RuleOperator, (actual: unknown, expected: unknown) => boolean> = {
  $eq: (actual, expected) => equalsValue(actual, expected),
  $ne: (actual, expected) => !equalsValue(actual, expected),
  $in: (actual, list) => listOf(list).some((item) => equalsValue(actual, item)),
  $nin: (actual, list) => !listOf(list).some((item) => equalsValue(actual, item)),
  $all: (actual, list) => Array.isArray(actual) && listOf(list).length > 0 && jsonContains(actual, list),
};

/** matchesRule evaluates a resolved rule on a record (stamps and fields flat), as the SQL does. */
export function matchesRule(record: Record<string, unknown>, rule: ResolvedRule): boolean {
  if (typeof rule === 'boolean') return rule;
  return Object.entries(rule).every(([key, value]) => {
    const items = (Array.isArray(value) ? value : []) as ResolvedRule[];
    if (key === '$and') return items.every((item) => matchesRule(record, item));
    if (key === '$or') return items.some((item) => matchesRule(record, item));
    if (key === '$nor') return !items.some((item) => matchesRule(record, item));
    const ops = isPlainObject(value) ? value : { $eq: value };
    const actual = readPath(record, key);
    return Object.entries(ops).every(
      ([op, expected]) => isRuleOperator(op) && matchesOperator[op](actual, expected),
    );
  });
}

// ---- SQL: the same operators as boolean SQL over `entity_records` ----

/** ParamSink collects positional parameters while SQL text is built (the store's SqlParams). */
export interface ParamSink {
  /** add stores value and returns its placeholder, e.g. `$3`. */
  add(value: unknown): string;
}

/** SqlTarget is the jsonb expression of a field, and its path in `data` when `@>` can answer equality. */
export interface SqlTarget {
  json: string;
  /** containment is the path in `data` when `@>` can answer equality (GIN-indexed), else null. */
  containment: string[] | null;
}

/** nestedJson builds `{"a":{"b":value}}` as text without ever assigning a caller key on an object. */
function nestedJson(path: string[], value: unknown): string {
  return path.reduceRight((inner, key) => `{${JSON.stringify(key)}:${inner}}`, JSON.stringify(value));
}

/** equalsSql is `$eq` in SQL; every predicate is non-NULL (COALESCE), so NOT is exact. */
function equalsSql(t: SqlTarget, value: unknown, params: ParamSink): string {
  if (value === null) return `(${t.json} IS NULL OR ${t.json} = 'null'::jsonb)`;
  if (typeof value === 'object')
    return `COALESCE(${t.json} = ${params.add(JSON.stringify(value))}::jsonb, false)`;
  if (t.containment) {
    const one = params.add(nestedJson(t.containment, value));
    const inArray = params.add(nestedJson(t.containment, [value]));
    return `(data @> ${one}::jsonb OR data @> ${inArray}::jsonb)`;
  }
  const one = params.add(JSON.stringify(value));
  const inArray = params.add(JSON.stringify([value]));
  return `COALESCE(${t.json} = ${one}::jsonb OR (jsonb_typeof(${t.json}) = 'array' AND ${t.json} @> ${inArray}::jsonb), false)`;
}

/**
 * LIST_BY_ANY is the list length from which `$in`/`$nin` read the field once per row and compare it with
 * `= ANY`: a condition per value reads (detoasts) the whole record once per value, so 500 values over
 * records of 64 KB took seconds per thousand rows. Shorter lists keep `@>`, which the GIN index serves.
 */
const LIST_BY_ANY = 8;

function anyOfSql(t: SqlTarget, values: unknown[], params: ParamSink): string {
  if (values.length === 0) return 'false';
  if (values.length < LIST_BY_ANY)
    return `(${values.map((value) => equalsSql(t, value, params)).join(' OR ')})`;
  const scalars = values.filter((value) => value !== null && typeof value !== 'object');
  const others = values.filter((value) => value === null || typeof value === 'object');
  const parts = others.map((value) => equalsSql(t, value, params));
  if (scalars.length > 0) {
    const one = params.add(scalars.map((value) => JSON.stringify(value)));
    const inArray = params.add(scalars.map((value) => JSON.stringify([value])));
    parts.push(
      `COALESCE(${t.json} = ANY(${one}::jsonb[]) OR (jsonb_typeof(${t.json}) = 'array' AND ${t.json} @> ANY(${inArray}::jsonb[])), false)`,
    );
  }
  return `(${parts.join(' OR ')})`;
}

/**
 * ruleOperatorSql is each rule operator in SQL. The caller (the store's compiler) has checked that `$in`,
 * `$nin` and `$all` got an array.
 */
export const ruleOperatorSql: Record<
  RuleOperator,
  (t: SqlTarget, expected: unknown, params: ParamSink) => string
> = {
  $eq: (t, expected, params) => equalsSql(t, expected, params),
  $ne: (t, expected, params) => `NOT ${equalsSql(t, expected, params)}`,
  $in: (t, list, params) => anyOfSql(t, list as unknown[], params),
  $nin: (t, list, params) => `NOT ${anyOfSql(t, list as unknown[], params)}`,
  $all: (t, list, params) =>
    (list as unknown[]).length === 0
      ? 'false'
      : `COALESCE(jsonb_typeof(${t.json}) = 'array' AND ${t.json} @> ${params.add(JSON.stringify(list))}::jsonb, false)`,
};

/** isRuleOperator says whether op is one of the rule operators (evaluated by both evaluators here). */
export function isRuleOperator(op: string): op is RuleOperator {
  return Object.hasOwn(ruleOperatorSql, op);
}
