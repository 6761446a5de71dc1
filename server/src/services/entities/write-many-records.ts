// Writing many entity records in one call, one module per action: bulk create (create-many-records.ts),
// update-many and bulk update by id (update-many-records.ts), delete-many (delete-many-records.ts); upsert
// by key is in upsert-records.ts. Each is all or nothing, and announces every change after the commit.
// The routes check each body's envelope with its schema (schemas/entities.ts) before these run.
import { createManyRecords } from './create-many-records';
import { deleteManyRecords } from './delete-many-records';
import type { EntitiesContext } from './entities-context';
import { updateManyRecords } from './update-many-records';

export { MAX_BULK_RECORDS } from './create-many-records';
export { MAX_BATCH_WRITE } from './update-many-records';

/** writeManyRecords returns the batch write actions of the entities service. */
export function writeManyRecords(ctx: EntitiesContext) {
  return {
    ...createManyRecords(ctx),
    ...deleteManyRecords(ctx),
    ...updateManyRecords(ctx),
  };
}
