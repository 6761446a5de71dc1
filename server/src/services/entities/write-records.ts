import type { Caller } from '../../rules/caller';
import type { EntityRecordRow } from '../../store/entity-records-store';
import type { EntitiesContext } from './entities-context';
import { RecordValidationError } from './entity-errors';
import { refuseDeniedWrites } from './field-rules';
import { toRecord, type EntityRecord } from './record-presenter';
import { inferredRecordProblem, prepareRecord } from '../../project/record-validator';
import { isUserEntity } from '../../project/user-entity';
import { mergeWrite, prepareCreate } from './write-checks';

// Writing one entity record: create, update, delete. Each checks the caller's rule, writes, and
// announces the change after the commit. The built-in User's update and delete go to the users service.

/** writeRecords returns the single-record write actions of the entities service. */
export function writeRecords(ctx: EntitiesContext) {
  const { deps, store, requireEntity, refuseUserCreate, selection, present, notFound, emitAll } = ctx;
  return {
    /** create validates, checks the create rules, stores and announces one record. */
    async create(appId: string, name: string, caller: Caller, body: unknown): Promise<EntityRecord> {
      const entity = requireEntity(name);
      refuseUserCreate(entity, caller);
      const rows = await store.insertMany(appId, entity.name, [prepareCreate(entity, caller, body)]);
      emitAll(appId, entity, 'create', rows);
      return present(entity, caller, rows[0] as EntityRecordRow);
    },

    /** update merges body into a record the caller may update (else not found) and announces it. */
    async update(
      appId: string,
      name: string,
      caller: Caller,
      id: string,
      body: unknown,
    ): Promise<EntityRecord> {
      const entity = requireEntity(name);
      if (isUserEntity(entity)) return deps.users.update(appId, caller, id, body);
      // The update rule goes first: a caller who may update no record, or not this one, gets its 404
      // before the body is validated.
      const chosen = selection(appId, entity, caller, 'update');
      if (chosen.rule === false) throw notFound(entity, id);
      const row = await store.updateOne(chosen, id, (existing) => {
        const prepared = prepareRecord(entity, body, 'update');
        if (!prepared.ok) throw new RecordValidationError(prepared.message);
        const after = mergeWrite(existing, prepared.data, caller, entity);
        const tooLarge = inferredRecordProblem(entity, after);
        if (tooLarge) throw new RecordValidationError(tooLarge);
        const changes = Object.fromEntries(Object.keys(prepared.data).map((key) => [key, after[key]]));
        refuseDeniedWrites({
          properties: entity.properties,
          changes,
          before: existing.data,
          context: toRecord(existing),
          mode: 'update',
          caller,
        });
        return after;
      });
      if (!row) throw notFound(entity, id);
      emitAll(appId, entity, 'update', [row]);
      return present(entity, caller, row);
    },

    /** remove deletes a record the caller may delete (else not found) and announces it. */
    async remove(appId: string, name: string, caller: Caller, id: string): Promise<{ success: true }> {
      const entity = requireEntity(name);
      if (isUserEntity(entity)) return deps.users.remove(appId, caller, id);
      const row = await store.deleteOne(selection(appId, entity, caller, 'delete'), id);
      if (!row) throw notFound(entity, id);
      emitAll(appId, entity, 'delete', [row]);
      return { success: true };
    },
  };
}
