// Delete-many: every record a query selects that the delete rule admits (both in SQL), deleted in one
// statement and announced after it.
import type { DeleteManyBody } from '../../schemas/entities';
import { ForbiddenError } from '../../lib/errors';
import type { Caller } from '../../rules/caller';
import type { EntitiesContext } from './entities-context';

/** deleteManyRecords is the entities service's delete-many. */
export function deleteManyRecords(ctx: EntitiesContext) {
  const { store, requireEntity, refuseUserBatch, requireSignedInWriter, selection, emitAll } = ctx;
  return {
    /**
     * removeMany deletes every record matching query that the delete rule lets the caller delete.
     * Anonymous callers need a delete (or write) rule that is stated and open; an absent rule is not enough.
     */
    async removeMany(appId: string, name: string, caller: Caller, query: DeleteManyBody) {
      const entity = requireEntity(name);
      refuseUserBatch(entity, caller, 'deleteMany');
      requireSignedInWriter(entity, caller, 'delete');
      const chosen = selection(appId, entity, caller, 'delete', query);
      if (chosen.rule === false) throw new ForbiddenError('Permission denied');
      const rows = await store.deleteMany(chosen);
      emitAll(appId, entity, 'delete', rows);
      return { success: true as const, deleted: rows.length };
    },
  };
}
