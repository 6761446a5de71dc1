// Upsert: create or update records by the value of their key field(s), all or nothing. Apart from the other
// batch writes (write-many-records.ts) as the largest of them.
import type { UpsertBody } from '../../schemas/entities';
import { ForbiddenError, InvalidInputError } from '../../lib/errors';
import type { Caller } from '../../rules/caller';
import { readScope } from '../../rules/read-scope';
import type { EntityRecordRow, NewEntityRecord } from '../../store/entity-records-store';
import type { EntitiesContext } from './entities-context';
import { RecordValidationError } from './entity-errors';
import type { EntityRecord } from './record-presenter';
import { prepareRecord } from '../../project/record-validator';
import { checkedUpdate, createRuleOf, mergeWrite, prepareCreate } from './write-checks';
import { MAX_BATCH_WRITE } from './update-many-records';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** upsertRecords is the entities service's upsert. */
export function upsertRecords(ctx: EntitiesContext) {
  const { store, requireEntity, refuseUserCreate, selection, presenter, emitAll } = ctx;
  return {
    /**
     * upsert creates or updates records by the value of their top-level key field(s): a record whose key
     * matches an existing record the caller may read merges into it (update rule and field rules; a matched
     * record the caller may not update refuses the whole call with 403), any other is created (create
     * rules). Records the caller may not read never match, so upsert reveals nothing about them: a key
     * only they hold creates a new record (entity data has no unique keys). A key field hidden from the
     * caller by a field read rule is refused (403). Duplicates within one call: the last wins. All or nothing.
     */
    async upsert(appId: string, name: string, caller: Caller, { records, key }: UpsertBody) {
      const entity = requireEntity(name);
      refuseUserCreate(entity, caller);
      const keys = typeof key === 'string' ? [key] : key;
      if (
        keys.length === 0 ||
        keys.length > 4 ||
        !keys.every((field) => Object.hasOwn(entity.properties, field))
      ) {
        throw new InvalidInputError(
          'upsert needs "key": a field of the entity, or an array of up to 4 fields',
        );
      }
      const keyFields = [...new Set(keys)];
      const scope = readScope(entity.properties, caller);
      const hidden = keyFields.filter((field) => scope.has(field));
      if (hidden.length) {
        throw new ForbiddenError(
          `upsert cannot match on ${hidden.map((field) => `"${field}"`).join(', ')}: a field read rule hides it from you`,
        );
      }
      const readRule = selection(appId, entity, caller, 'read').rule;
      const updateRule = selection(appId, entity, caller, 'update').rule;
      if (createRuleOf(entity, caller) === false && (readRule === false || updateRule === false)) {
        throw new ForbiddenError('Permission denied');
      }
      if (records.length > MAX_BATCH_WRITE) {
        throw new InvalidInputError(
          `An upsert takes at most ${MAX_BATCH_WRITE} records (got ${records.length})`,
        );
      }
      const byKey = new Map<string, { values: unknown[]; body: EntityRecord }>();
      records.forEach((record, index) => {
        if (!isObject(record)) throw new InvalidInputError(`Record ${index}: must be an object`);
        const values = keyFields.map((field) => record[field]);
        if (!values.every((value) => ['string', 'number', 'boolean'].includes(typeof value))) {
          throw new InvalidInputError(
            `Record ${index}: every key field (${keyFields.join(', ')}) needs a string, number or boolean value`,
          );
        }
        const id = JSON.stringify(values);
        byKey.delete(id);
        byKey.set(id, { values, body: record });
      });
      if (byKey.size === 0) return { created: 0, updated: 0, records: [] as EntityRecord[] };
      const { inserted, updated } = await store.upsertByKey(
        appId,
        entity.name,
        keyFields,
        [...byKey.values()].map((entry) => entry.values),
        readRule,
        updateRule,
        (existing) => {
          const matches = new Map<string, { row: EntityRecordRow; admitted: boolean }>();
          for (const found of existing) {
            const id = JSON.stringify(keyFields.map((field) => found.row.data[field]));
            if (!matches.has(id)) matches.set(id, found);
          }
          const inserts: NewEntityRecord[] = [];
          const updates: { id: string; data: EntityRecord }[] = [];
          for (const [id, { body: record }] of byKey) {
            const match = matches.get(id);
            if (!match) {
              inserts.push(prepareCreate(entity, caller, record));
              continue;
            }
            if (!match.admitted)
              throw new ForbiddenError('Permission denied: you may not update a matching record');
            const prepared = prepareRecord(entity, record, 'update');
            if (!prepared.ok) throw new RecordValidationError(prepared.message);
            const merged = mergeWrite(match.row, prepared.data, caller, entity);
            updates.push({ id: match.row.id, data: checkedUpdate(entity, caller, match.row, merged) });
          }
          return { inserts, updates };
        },
      );
      emitAll(appId, entity, 'create', inserted);
      emitAll(appId, entity, 'update', updated);
      return {
        created: inserted.length,
        updated: updated.length,
        records: [...inserted, ...updated].map(presenter(entity, caller)),
      };
    },
  };
}
