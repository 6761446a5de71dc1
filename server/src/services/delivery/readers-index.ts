// Which of a room's identity groups may read a record, without a rule check per group. Each group's read
// rule and field scope are resolved once per groups list and entity (both stay the same from event to
// event). A group whose rule came out as one equality on a field (`created_by: '{{user.email}}'`, the
// usual "own rows" rule) is filed under that value, so an event looks its record's value up instead of
// checking 500 rules. Every candidate is still checked with matchesRule: the index only leaves out groups
// that cannot match, so what is sent is what visibleTo (entity-delivery.ts) would send. NB: this holds
// while a resolved rule and field scope depend on the rule and the caller only (resolve-rule.ts,
// read-scope.ts); a rule that read anything else (the time, app settings) would be kept stale here.
import type { EntityDef } from '../../project/entity-def';
import { isPlainObject, matchesRule, readPath, type ResolvedRule } from '../../rules/evaluate-rule';
import { readScope, type ReadScope } from '../../rules/read-scope';
import { resolveRule } from '../../rules/resolve-rule';
import type { IdentityGroup } from './room-groups';

/** Reader is a group that may read some records of the entity: its resolved rule and field scope. */
export interface Reader {
  group: IdentityGroup;
  rule: ResolvedRule;
  /** scope is the fields its field rules may hide (null: the service role, which sees everything). */
  scope: ReadScope | null;
  /** order is the group's place in the room's list: readers go out in that order. */
  order: number;
}

interface ReadersIndex {
  entity: EntityDef;
  /** scan are readers checked on every record (any rule that is not one string equality). */
  scan: Reader[];
  /** byField files the readers whose rule is `{field: {$eq: text}}` under field, then text. */
  byField: Map<string, Map<string, Reader[]>>;
}

// Keyed by the groups list: room-groups.ts hands out the same list until the room's groups change.
const indexes = new WeakMap<readonly IdentityGroup[], ReadersIndex>();

/** equality is [field, text] when rule is exactly one field equal to a string, else null. */
function equality(rule: ResolvedRule): [string, string] | null {
  if (typeof rule === 'boolean') return null;
  const fields = Object.keys(rule);
  const field = fields[0];
  if (fields.length !== 1 || field === undefined || field.startsWith('$')) return null;
  const ops = rule[field];
  if (!isPlainObject(ops)) return null;
  const [op, ...others] = Object.keys(ops);
  return op === '$eq' && others.length === 0 && typeof ops.$eq === 'string' ? [field, ops.$eq] : null;
}

function build(groups: readonly IdentityGroup[], entity: EntityDef): ReadersIndex {
  const index: ReadersIndex = { entity, scan: [], byField: new Map() };
  for (const [order, group] of groups.entries()) {
    const { caller } = group;
    const rule = resolveRule(entity.rls.read, caller);
    if (rule === false) continue;
    const scope = caller.kind === 'service' ? null : readScope(entity.properties, caller);
    const reader: Reader = { group, rule, scope, order };
    const filed = equality(rule);
    if (!filed) {
      index.scan.push(reader);
      continue;
    }
    const [field, text] = filed;
    const byText = index.byField.get(field) ?? new Map<string, Reader[]>();
    index.byField.set(field, byText);
    const readers = byText.get(text);
    if (readers) readers.push(reader);
    else byText.set(text, [reader]);
  }
  return index;
}

/**
 * readersOf returns the groups (with their field scopes) whose read rule on entity admits record. `$eq`
 * on a string matches the field's value or, in an array, one of its elements (evaluate-rule.ts): those are
 * the only values looked up.
 */
export function readersOf(
  groups: readonly IdentityGroup[],
  entity: EntityDef,
  record: Record<string, unknown>,
): Reader[] {
  let index = indexes.get(groups);
  if (index?.entity !== entity) {
    index = build(groups, entity);
    indexes.set(groups, index);
  }
  const found = index.scan.filter((reader) => matchesRule(record, reader.rule));
  const scanned = found.length;
  for (const [field, byText] of index.byField) {
    const value = readPath(record, field);
    const texts = Array.isArray(value) ? new Set(value) : [value];
    for (const text of texts) {
      if (typeof text !== 'string') continue;
      for (const reader of byText.get(text) ?? []) if (matchesRule(record, reader.rule)) found.push(reader);
    }
  }
  // Lookups add readers out of the room's order (an array value, several fields): put them back in it.
  return found.length > scanned && found.length > 1 ? found.sort((a, b) => a.order - b.order) : found;
}
