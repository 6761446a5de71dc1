import type { Caller, RuleUser } from './caller';
import { isPlainObject, matchesRule, readPath, type ResolvedRule } from './evaluate-rule';
import type { Rule, RuleCondition } from './rule-schema';

// A rule resolved for one caller. Everything about the caller (`user_condition`, `{{user.*}}` templates)
// is decided here, in code; what is left is a condition on the record in the entity query language, which
// evaluate-rule.ts evaluates in SQL (the store's WHERE clause, so paging sees only permitted rows) and in
// JS (a record in hand).

const NEVER = Symbol('never');
const TEMPLATE = /\{\{\s*user\.([A-Za-z_][A-Za-z0-9_.]*)\s*\}\}/g;
const OPERATORS = new Set(['$eq', '$ne', '$in', '$nin', '$all']);

function userContext(user: RuleUser): Record<string, unknown> {
  return { id: user.id, email: user.email, role: user.role, full_name: user.full_name, data: user.custom };
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
