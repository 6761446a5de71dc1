// Updating many records in one call: update-many (Mongo operators on the records a query selects) and
// bulk update (fields merged into records by id). Each locks its records, checks every result (schema,
// update and field rules) and writes them in one transaction, all or nothing, announced after the commit.
import type { BulkUpdateBody, UpdateManyBody } from '../../schemas/entities';
import { ForbiddenError, InvalidInputError } from '../../lib/errors';
import type { Caller } from '../../rules/caller';
import { readView } from '../../rules/read-scope';
import type { EntityRecordRow } from '../../store/entity-records-store';
import { prepareRecord } from '../../project/record-validator';
import type { EntitiesContext } from './entities-context';
import { RecordValidationError } from './entity-errors';
import { toRecord, type EntityRecord } from './record-presenter';
import { applyUpdate, newArrayWork, parseUpdate } from './update-operators';
import { checkedUpdate, mergeWrite } from './write-checks';

/** MAX_BATCH_WRITE is the most records one updateMany, bulkUpdate or upsert writes (the SDK's documented 500). */
export const MAX_BATCH_WRITE = 500;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** updateManyRecords is the entities service's update-many and bulk update. */
export function updateManyRecords(ctx: EntitiesContext) {
  const { store, requireEntity, refuseUserBatch, requireSignedInWriter } = ctx;
  const { selection, presenter, notFound, emitAll } = ctx;
  return {
    /**
     * updateMany applies Mongo update operators to at most MAX_BATCH_WRITE records matching query that the
     * update rule admits (both in SQL); one invalid or forbidden result rolls the whole batch back.
     */
    async updateMany(appId: string, name: string, caller: Caller, { query, data }: UpdateManyBody) {
      const entity = requireEntity(name);
      refuseUserBatch(entity, caller, 'updateMany');
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
    async bulkUpdate(
      appId: string,
      name: string,
      caller: Caller,
      body: BulkUpdateBody,
    ): Promise<EntityRecord[]> {
      const entity = requireEntity(name);
      refuseUserBatch(entity, caller, 'bulkUpdate');
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
