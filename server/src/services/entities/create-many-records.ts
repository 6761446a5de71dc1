// Bulk create: every record checked first (create rules, the entity's fields), then all stored in one
// statement, all or nothing, and announced after the commit.
import type { BulkCreateBody } from '../../schemas/entities';
import { InvalidInputError } from '../../lib/errors';
import type { Caller } from '../../rules/caller';
import type { EntitiesContext } from './entities-context';
import { RecordValidationError } from './entity-errors';
import type { EntityRecord } from './record-presenter';
import { createRule, prepareCreate } from './write-checks';

/** MAX_BULK_RECORDS is the most records one bulk create may hold; more is a 400. */
export const MAX_BULK_RECORDS = 1000;

/** createManyRecords is the entities service's bulk create. */
export function createManyRecords(ctx: EntitiesContext) {
  const { store, requireEntity, refuseUserCreate, presenter, emitAll } = ctx;
  return {
    /** bulkCreate checks every record first, then stores them all in one statement. */
    async bulkCreate(
      appId: string,
      name: string,
      caller: Caller,
      bodies: BulkCreateBody,
    ): Promise<EntityRecord[]> {
      const entity = requireEntity(name);
      refuseUserCreate(entity, caller);
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
  };
}
