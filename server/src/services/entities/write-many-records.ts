import { ForbiddenError, InvalidInputError } from '../../lib/errors';
import type { Caller } from '../../rules/caller';
import { readScope, readView } from '../../rules/read-scope';
import type { EntityRecordRow, NewEntityRecord } from '../../store/entity-records-store';
import type { EntitiesContext } from './entities-context';
import { RecordValidationError } from './entity-errors';
import { toRecord, type EntityRecord } from './record-presenter';
import { prepareRecord } from './record-validator';
import { applyUpdate, newArrayWork, parseUpdate } from './update-operators';
import { checkedUpdate, createRule, createRuleOf, mergeWrite, prepareCreate } from './write-checks';

// Writing many entity records in one call: bulk create, bulk update by id, update-many and delete-many by
// query, upsert by key. Each is all or nothing, and announces every change after the commit.

/** MAX_BULK_RECORDS is the most records one bulk create may hold; more is a 400. */
export const MAX_BULK_RECORDS = 1000;
/** MAX_BATCH_WRITE is the most records one updateMany, bulkUpdate or upsert writes (the SDK's documented 500). */
export const MAX_BATCH_WRITE = 500;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** writeManyRecords returns the batch write actions of the entities service. */
export function writeManyRecords(ctx: EntitiesContext) {
  const { store, requireEntity, refuseUserCreate, refuseUserBatch, requireSignedInWriter } = ctx;
  const { selection, presenter, notFound, emitAll } = ctx;
  return {
    /** bulkCreate checks every record first, then stores them all in one statement. */
    async bulkCreate(appId: string, name: string, caller: Caller, bodies: unknown): Promise<EntityRecord[]> {
      const entity = requireEntity(name);
      refuseUserCreate(entity, caller);
      if (!Array.isArray(bodies)) throw new InvalidInputError('Request body must be an array');
      if (bodies.length > MAX_BULK_RECORDS) {
        throw new InvalidInputError(
          `A bulk create takes at most ${MAX_BULK_RECORDS} records (got ${bodies.length})`,
        );
      }
      const rule = createRule(entity, caller);
      const records = bodies.map((body, index) => {
        try {
          return prepareCreate(entity, caller, body, rule);
        } catch (error) {
          if (error instanceof RecordValidationError)
            throw new RecordValidationError(`Record ${index}: ${error.message}`);
          throw error;
        }
      });
      if (records.length === 0) return [];
      const rows = await store.insertMany(appId, entity.name, records);
      emitAll(appId, entity, 'create', rows);
      return rows.map(presenter(entity, caller));
    },

    /**
     * removeMany deletes every record matching query that the delete rule lets the caller delete.
     * Anonymous callers need a delete (or write) rule that is stated and open; an absent rule is not enough.
     */
    async removeMany(appId: string, name: string, caller: Caller, query: unknown) {
      const entity = requireEntity(name);
      refuseUserBatch(entity, caller, 'deleteMany');
      if (!isObject(query))
        throw new InvalidInputError('deleteMany needs a query object as the request body');
      requireSignedInWriter(entity, caller, 'delete');
      const chosen = selection(appId, entity, caller, 'delete', query);
      if (chosen.rule === false) throw new ForbiddenError('Permission denied');
      const rows = await store.deleteMany(chosen);
      emitAll(appId, entity, 'delete', rows);
      return { success: true as const, deleted: rows.length };
    },

    /**
     * updateMany applies Mongo update operators to at most MAX_BATCH_WRITE records matching query that the
     * update rule admits (both in SQL); one invalid or forbidden result rolls the whole batch back.
     */
    async updateMany(appId: string, name: string, caller: Caller, body: unknown) {
      const entity = requireEntity(name);
      refuseUserBatch(entity, caller, 'updateMany');
      if (!isObject(body)) {
        throw new InvalidInputError('updateMany needs a body {"query": {...}, "data": {...}}');
      }
      const { query, data } = body;
      if (!isObject(query)) throw new InvalidInputError('updateMany needs "query" to be an object');
      requireSignedInWriter(entity, caller, 'update');
      const chosen = selection(appId, entity, caller, 'update', query);
      if (chosen.rule === false) throw new ForbiddenError('Permission denied');
      const update = parseUpdate(data);
      const now = new Date();
      // Operators read current values as the caller may see them (field read rules), never more.
      const view = (row: EntityRecordRow) => readView(toRecord(row), chosen.visibility ?? new Map());
      const { rows, more } = await store.updateSelected(chosen, { limit: MAX_BATCH_WRITE }, (found) => {
        // One budget for the array operators over every record, so the whole request's cost is bounded.
        const work = newArrayWork();
        return found.map((row) => ({
          id: row.id,
          data: checkedUpdate(entity, caller, row, applyUpdate(row.data, update, now, view(row), work)),
        }));
      });
      emitAll(appId, entity, 'update', rows);
      return { success: true as const, updated: rows.length, has_more: more };
    },

    /**
     * bulkUpdate merges each `{id, ...fields}` into its record. All or nothing: an id the caller may not
     * update (or that does not exist) refuses the whole call with 404, like update(); duplicates merge in order.
     */
    async bulkUpdate(appId: string, name: string, caller: Caller, body: unknown): Promise<EntityRecord[]> {
      const entity = requireEntity(name);
      refuseUserBatch(entity, caller, 'bulkUpdate');
      if (!Array.isArray(body))
        throw new InvalidInputError('Request body must be an array of {id, ...fields}');
      if (body.length > MAX_BATCH_WRITE) {
        throw new InvalidInputError(
          `A bulk update takes at most ${MAX_BATCH_WRITE} records (got ${body.length})`,
        );
      }
      const chosen = selection(appId, entity, caller, 'update');
      const patches = new Map<string, EntityRecord>();
      const order: string[] = [];
      body.forEach((item, index) => {
        if (!isObject(item)) throw new InvalidInputError(`Record ${index}: must be an object with an "id"`);
        const { id, ...fields } = item;
        if (typeof id !== 'string' || id.length === 0 || id.length > 128) {
          throw new InvalidInputError(`Record ${index}: "id" must be a non-empty string`);
        }
        // A caller who may update no record gets the 404 update() would give, before any validation.
        if (chosen.rule === false) throw notFound(entity, id);
        const prepared = prepareRecord(entity, fields, 'update');
        if (!prepared.ok) throw new RecordValidationError(`Record ${index}: ${prepared.message}`);
        if (!patches.has(id)) order.push(id);
        patches.set(id, { ...patches.get(id), ...prepared.data });
      });
      if (order.length === 0) return [];
      const { rows } = await store.updateSelected(chosen, { limit: order.length, ids: order }, (found) => {
        const byId = new Map(found.map((row) => [row.id, row]));
        return order.map((id) => {
          const row = byId.get(id);
          if (!row) throw notFound(entity, id);
          const merged = mergeWrite(row, patches.get(id) ?? {}, caller, entity);
          return { id, data: checkedUpdate(entity, caller, row, merged) };
        });
      });
      emitAll(appId, entity, 'update', rows);
      return rows.map(presenter(entity, caller));
    },

    /**
     * upsert creates or updates records by the value of their top-level key field(s): a record whose key
     * matches an existing record the caller may read merges into it (update rule and field rules; a matched
     * record the caller may not update refuses the whole call with 403), any other is created (create
     * rules). Records the caller may not read never match, so upsert reveals nothing about them: a key
     * only they hold creates a new record (entity data has no unique keys). A key field hidden from the
     * caller by a field read rule is refused (403). Duplicates within one call: the last wins. All or nothing.
     */
    async upsert(appId: string, name: string, caller: Caller, body: unknown) {
      const entity = requireEntity(name);
      refuseUserCreate(entity, caller);
      if (!isObject(body))
        throw new InvalidInputError('upsert needs a body {"records": [...], "key": "field"}');
      const { records, key } = body;
      const keys = typeof key === 'string' ? [key] : key;
      if (
        !Array.isArray(keys) ||
        keys.length === 0 ||
        keys.length > 4 ||
        !keys.every((field) => typeof field === 'string' && Object.hasOwn(entity.properties, field))
      ) {
        throw new InvalidInputError(
          'upsert needs "key": a field of the entity, or an array of up to 4 fields',
        );
      }
      const keyFields = [...new Set(keys as string[])];
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
      if (!Array.isArray(records)) throw new InvalidInputError('upsert needs "records" to be an array');
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
