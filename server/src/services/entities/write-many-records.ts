import { ForbiddenError, InvalidInputError } from '../../lib/errors';
import type { Caller } from '../../rules/caller';
import { readView } from '../../rules/read-scope';
import type { EntityRecordRow } from '../../store/entity-records-store';
import type { EntitiesContext } from './entities-context';
import { RecordValidationError } from './entity-errors';
import { toRecord, type EntityRecord } from './record-presenter';
import { prepareRecord } from '../../project/record-validator';
import { applyUpdate, newArrayWork, parseUpdate } from './update-operators';
import { checkedUpdate, createRule, mergeWrite, prepareCreate } from './write-checks';

// Writing many entity records in one call: bulk create, bulk update by id, update-many and delete-many by
// query (upsert by key is in upsert-records.ts). Each is all or nothing, and announces every change after the commit.

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
  };
}
