import type { Rule, RuleCondition } from '../../schemas/entity-project';

// The rule language (base44-dev-server.md §3.1) resolved for one caller. Everything about the caller
// (`user_condition`, `{{user.*}}` templates) is decided here, in code; what is left is a condition on the
// record in the entity query language, which the store compiles into the same WHERE clause as the
// caller's own query (so paging sees only permitted rows) and `matchesRule` evaluates on a record in hand.

/** RuleUser is what rules may read about a signed-in caller. */
export interface RuleUser {
  id: string;
  email: string;
  role: string;
  full_name: string;
  custom: Record<string, unknown>;
}

/** Caller is who a request is: anonymous, a signed-in user, or the service role (which bypasses rules). */
export type Caller = { kind: 'anonymous' } | { kind: 'user'; user: RuleUser } | { kind: 'service' };

/** userCaller is the Caller for a signed-in user: only what rules may read of them. */
export function userCaller(user: RuleUser): Caller {
  const { id, email, role, full_name, custom } = user;
  return { kind: 'user', user: { id, email, role, full_name, custom } };
}

/** ResolvedRule is true (every record), false (none) or a condition on the record. */
export type ResolvedRule = boolean | Record<string, unknown>;

const NEVER = Symbol('never');
const TEMPLATE = /\{\{\s*user\.([A-Za-z_][A-Za-z0-9_.]*)\s*\}\}/g;
const OPERATORS = new Set(['$eq', '$ne', '$in', '$nin', '$all']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function userContext(user: RuleUser): Record<string, unknown> {
  return { id: user.id, email: user.email, role: user.role, full_name: user.full_name, data: user.custom };
}

function readPath(source: unknown, path: string): unknown {
  let current: unknown = source;
  for (const key of path.split('.')) {
    if (!isPlainObject(current) || !Object.hasOwn(current, key)) return undefined;
    current = current[key];
  }
  return current;
}

function substitute(value: unknown, user: RuleUser): unknown {
  if (Array.isArray(value)) {
    const items = value.map((item) => substitute(item, user));
    return items.includes(NEVER) ? NEVER : items;
  }
  if (typeof value !== 'string') return value;
  const whole = /^\{\{\s*user\.([A-Za-z_][A-Za-z0-9_.]*)\s*\}\}$/.exec(value);
  const context = userContext(user);
  if (whole) {
    const found = readPath(context, whole[1] as string);
    // NB: a template naming a value the user lacks must not become `null` (that would match unowned rows).
    return found === undefined || found === null ? NEVER : found;
  }
  let missing = false;
  const text = value.replace(TEMPLATE, (_match, path: string) => {
    const found = readPath(context, path);
    if (found === undefined || found === null) missing = true;
    return String(found);
  });
  return missing ? NEVER : text;
}

function and(parts: ResolvedRule[]): ResolvedRule {
  if (parts.includes(false)) return false;
  const conditions = parts.filter((part): part is Record<string, unknown> => part !== true);
  if (conditions.length === 0) return true;
  return conditions.length === 1 ? (conditions[0] as Record<string, unknown>) : { $and: conditions };
}

function or(parts: ResolvedRule[]): ResolvedRule {
  if (parts.includes(true)) return true;
  const conditions = parts.filter((part): part is Record<string, unknown> => part !== false);
  if (conditions.length === 0) return false;
  return conditions.length === 1 ? (conditions[0] as Record<string, unknown>) : { $or: conditions };
}

function operand(value: unknown, user: RuleUser): Record<string, unknown> | typeof NEVER {
  const ops = isPlainObject(value) ? value : { $eq: value };
  const out: Record<string, unknown> = {};
  for (const [op, raw] of Object.entries(ops)) {
    if (!OPERATORS.has(op)) return NEVER;
    const resolved = substitute(raw, user);
    if (resolved === NEVER) return NEVER;
    out[op] = resolved;
  }
  return out;
}

function resolveCondition(condition: RuleCondition, user: RuleUser): ResolvedRule {
  const parts: ResolvedRule[] = [];
  for (const [key, value] of Object.entries(condition)) {
    if (key === 'user_condition') {
      const checks = Object.entries(isPlainObject(value) ? value : {}).map(([path, raw]) => {
        const ops = operand(raw, user);
        return ops !== NEVER && matchesRule(userContext(user), { [path]: ops });
      });
      parts.push(checks.every(Boolean));
    } else if (key === '$or' || key === '$and' || key === '$nor') {
      const items = (Array.isArray(value) ? value : []).map((item) =>
        resolveCondition(item as RuleCondition, user),
      );
      const combined = key === '$and' ? and(items) : or(items);
      if (key !== '$nor') parts.push(combined);
      else parts.push(typeof combined === 'boolean' ? !combined : { $nor: [combined] });
    } else {
      const ops = operand(value, user);
      parts.push(ops === NEVER ? false : { [key.replace(/^data\./, '')]: ops });
    }
  }
  return and(parts);
}

/** isOpenRule says whether a rule admits everyone (absent, null, `""`, `{}` or true). */
export function isOpenRule(rule: Rule | undefined): boolean {
  return (
    rule === undefined ||
    rule === null ||
    rule === '' ||
    rule === true ||
    (isPlainObject(rule) && !Object.keys(rule).length)
  );
}

/** resolveRule decides rule for caller: the service role and open rules admit all; anonymous callers fail conditions. */
export function resolveRule(rule: Rule | undefined, caller: Caller): ResolvedRule {
  if (caller.kind === 'service' || isOpenRule(rule)) return true;
  if (rule === false || caller.kind === 'anonymous' || !isPlainObject(rule)) return false;
  return resolveCondition(rule, caller.user);
}

function equalsValue(actual: unknown, expected: unknown): boolean {
  if (expected === null) return actual === null || actual === undefined;
  if (Array.isArray(actual) && !Array.isArray(expected)) {
    return actual.some((item) => JSON.stringify(item) === JSON.stringify(expected));
  }
  return JSON.stringify(actual) === JSON.stringify(expected);
}

function matchesOperators(actual: unknown, ops: Record<string, unknown>): boolean {
  return Object.entries(ops).every(([op, expected]) => {
    const list = Array.isArray(expected) ? expected : [];
    if (op === '$eq') return equalsValue(actual, expected);
    if (op === '$ne') return !equalsValue(actual, expected);
    if (op === '$in') return list.some((item) => equalsValue(actual, item));
    if (op === '$nin') return !list.some((item) => equalsValue(actual, item));
    if (op === '$all')
      return Array.isArray(actual) && list.length > 0 && list.every((item) => equalsValue(actual, item));
    return false;
  });
}

/** matchesRule evaluates a resolved rule on a record (stamps and fields flat), as the SQL does. */
export function matchesRule(record: Record<string, unknown>, rule: ResolvedRule): boolean {
  if (typeof rule === 'boolean') return rule;
  return Object.entries(rule).every(([key, value]) => {
    const items = (Array.isArray(value) ? value : []) as ResolvedRule[];
    if (key === '$and') return items.every((item) => matchesRule(record, item));
    if (key === '$or') return items.some((item) => matchesRule(record, item));
    if (key === '$nor') return !items.some((item) => matchesRule(record, item));
    const ops = isPlainObject(value) ? value : { $eq: value };
    return matchesOperators(readPath(record, key), ops);
  });
}
