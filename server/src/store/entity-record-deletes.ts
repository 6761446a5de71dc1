// Deleting entity records: one by id, or every selected record; both return what they deleted.
import type { Database } from './database';
import { SqlParams } from './entity-filter-sql';
import { COLUMNS, run, where, type EntityRecordRow, type Selection } from './entity-records-sql';

/** EntityRecordDeletes are the statements that delete records. */
export interface EntityRecordDeletes {
  /** deleteOne deletes the record with id if the rule admits it and returns it. */
  deleteOne(selection: Selection, id: string): Promise<EntityRecordRow | null>;
  /** deleteMany deletes every selected record and returns them. */
  deleteMany(selection: Selection): Promise<EntityRecordRow[]>;
}

/** createEntityRecordDeletes returns the deletes of entity records on db. */
export function createEntityRecordDeletes(db: Database): EntityRecordDeletes {
  return {
    async deleteOne(selection, id) {
      const params = new SqlParams();
      const rows = await run<EntityRecordRow>(
        db,
        `DELETE FROM entity_records WHERE ${where(selection, params, id)} RETURNING ${COLUMNS}`,
        params.values,
      );
      return rows[0] ?? null;
    },

    async deleteMany(selection) {
      const params = new SqlParams();
      const condition = where(selection, params);
      return run<EntityRecordRow>(
        db,
        `DELETE FROM entity_records WHERE ${condition} RETURNING ${COLUMNS}`,
        params.values,
      );
    },
  };
}
