// The SQL for entity records, one module per kind of statement, composed here: reads
// (entity-record-reads.ts), counts and aggregates (entity-record-counts.ts), inserts
// (entity-record-inserts.ts), updates and upserts (entity-record-updates.ts), deletes
// (entity-record-deletes.ts). What they share is entity-records-sql.ts, and the filter compiler
// entity-filter-sql.ts; hot-query-plans.test.ts checks the plans of the hot statements.
import type { Database } from './database';
import { createEntityRecordCounts, type EntityRecordCounts } from './entity-record-counts';
import { createEntityRecordDeletes, type EntityRecordDeletes } from './entity-record-deletes';
import { createEntityRecordInserts, type EntityRecordInserts } from './entity-record-inserts';
import { createEntityRecordReads, type EntityRecordReads } from './entity-record-reads';
import { createEntityRecordUpdates, type EntityRecordUpdates } from './entity-record-updates';
import { createStatisticsKeeper, type StatisticsKeeper } from './statistics-keeper';

export type {
  EntityRecordRow,
  NewEntityRecord,
  PagePosition,
  RecordChange,
  Selection,
} from './entity-records-sql';

/** EntityRecordsStore is every statement on entity_records: reads, counts, inserts, updates, deletes. */
export interface EntityRecordsStore
  extends
    EntityRecordReads,
    EntityRecordCounts,
    EntityRecordInserts,
    EntityRecordUpdates,
    EntityRecordDeletes {}

/**
 * createEntityRecordsStore returns the SQL for entity records. Inserts feed `statistics` (by default a keeper
 * of entity_records' planner statistics on db).
 */
export function createEntityRecordsStore(
  db: Database,
  statistics: StatisticsKeeper = createStatisticsKeeper(db, 'entity_records'),
): EntityRecordsStore {
  return {
    ...createEntityRecordReads(db),
    ...createEntityRecordCounts(db),
    ...createEntityRecordInserts(db, statistics),
    ...createEntityRecordUpdates(db, statistics),
    ...createEntityRecordDeletes(db),
  };
}
