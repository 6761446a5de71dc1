import { ForbiddenError } from '../../lib/errors';
import { randomId } from '../../lib/secure-random';
import type { Caller } from '../../rules/caller';
import { matchesRule, type ResolvedRule } from '../../rules/evaluate-rule';
import { readScope, readView } from '../../rules/read-scope';
import { resolveRule } from '../../rules/resolve-rule';
import type { EntityRecordRow, NewEntityRecord } from '../../store/entity-records-store';
import { RecordValidationError } from './entity-errors';
import type { EntityDef } from '../../project/entity-def';
import { deniedFieldsError, deniedWrites, keepHidden, refuseDeniedWrites } from './field-rules';
import { toRecord, type EntityRecord } from './record-presenter';
import { prepareRecord } from '../../project/record-validator';
import { changesBetween } from './update-operators';

// The caller rules of a write, each written once: who owns a new record, the create rule (resolved,
// then decided on each new record), and an update's merge and checks (schema, required fields, field
// write rules, values hidden by field read rules kept).

/** owner is the stamps a record created by caller carries. */
export function owner(caller: Caller): { created_by: string | null; created_by_id: string | null } {
  if (caller.kind === 'user') return { created_by: caller.user.email, created_by_id: caller.user.id };
  if (caller.kind === 'service') return { created_by: null, created_by_id: 'service-role' };
  return { created_by: null, created_by_id: null };
}

const STAMP_FIELDS = new Set(['created_by', 'created_by_id']);

/** readsOnlyStamps says whether a resolved rule's conditions name the owner stamps only. */
function readsOnlyStamps(rule: ResolvedRule): boolean {
  if (typeof rule === 'boolean') return true;
  return Object.entries(rule).every(([key, value]) =>
    key === '$and' || key === '$or' || key === '$nor'
      ? Array.isArray(value) && value.every((item) => readsOnlyStamps(item as ResolvedRule))
      : STAMP_FIELDS.has(key),
  );
}

/** createRuleOf is entity's create rule (else its write rule) resolved for caller. */
export function createRuleOf(entity: EntityDef, caller: Caller): ResolvedRule {
  return resolveRule(entity.rls.create ?? entity.rls.write, caller);
}

/**
 * createRule is the caller's create rule, decided as far as it can be before the body is read: a rule
 * that admits no record, or one on the owner stamps alone that fails, is a 403 before any validation.
 * A rule on the record's own fields is decided on each validated record (checkNewRecord).
 */
export function createRule(entity: EntityDef, caller: Caller): ResolvedRule {
  const rule = createRuleOf(entity, caller);
  if (rule === false || (readsOnlyStamps(rule) && !matchesRule(owner(caller), rule))) {
    throw new ForbiddenError('Permission denied');
  }
  return rule;
}

/** NewRecordCheck is a new record ready to store, or the first thing that refuses it. */
export type NewRecordCheck =
  | { ok: true; record: NewEntityRecord }
  | { ok: false; problem: 'invalid'; message: string }
  | { ok: false; problem: 'rule' }
  | { ok: false; problem: 'fields'; denied: string[] };

/** checkNewRecord validates body for entity and decides the create rule and field write rules on it. */
export function checkNewRecord(
  entity: EntityDef,
  caller: Caller,
  body: unknown,
  rule: ResolvedRule,
): NewRecordCheck {
  const prepared = prepareRecord(entity, body, 'create');
  if (!prepared.ok) return { ok: false, problem: 'invalid', message: prepared.message };
  const stamps = owner(caller);
  const context = { ...prepared.data, ...stamps };
  if (!matchesRule(context, rule)) return { ok: false, problem: 'rule' };
  const denied = deniedWrites({
    properties: entity.properties,
    changes: prepared.data,
    before: {},
    context,
    mode: 'create',
    caller,
  });
  if (denied.length) return { ok: false, problem: 'fields', denied };
  return { ok: true, record: { id: randomId(), data: prepared.data, ...stamps } };
}

/** prepareCreate is checkNewRecord that throws: 400 for an invalid body, 403 for a rule that refuses it. */
export function prepareCreate(
  entity: EntityDef,
  caller: Caller,
  body: unknown,
  rule: ResolvedRule = createRule(entity, caller),
): NewEntityRecord {
  const checked = checkNewRecord(entity, caller, body, rule);
  if (checked.ok) return checked.record;
  if (checked.problem === 'invalid') throw new RecordValidationError(checked.message);
  if (checked.problem === 'rule') throw new ForbiddenError('Permission denied');
  throw deniedFieldsError(checked.denied, 'create');
}

/**
 * mergeWrite is row's data with patch written over it field by field, keeping what the caller cannot
 * see (keepHidden: a client writing back a record as it read it never erases hidden keys).
 */
export function mergeWrite(row: EntityRecordRow, patch: EntityRecord, caller: Caller, entity: EntityDef) {
  const view = readView(toRecord(row), readScope(entity.properties, caller));
  const merged: EntityRecord = { ...row.data };
  for (const [key, value] of Object.entries(patch)) {
    merged[key] = keepHidden(row.data[key], value, [key], view);
  }
  return merged;
}

/** checkedUpdate validates merged data (required fields stay), checks field write rules and returns it. */
export function checkedUpdate(entity: EntityDef, caller: Caller, row: EntityRecordRow, after: EntityRecord) {
  const prepared = prepareRecord(entity, after, 'update');
  if (!prepared.ok) throw new RecordValidationError(`Record ${row.id}: ${prepared.message}`);
  for (const field of entity.required) {
    if (Object.hasOwn(row.data, field) && !Object.hasOwn(prepared.data, field)) {
      throw new RecordValidationError(`Record ${row.id}: Error in field ${field}: Field required`);
    }
  }
  refuseDeniedWrites({
    properties: entity.properties,
    changes: changesBetween(row.data, prepared.data),
    before: row.data,
    context: toRecord(row),
    mode: 'update',
    caller,
  });
  return prepared.data;
}
