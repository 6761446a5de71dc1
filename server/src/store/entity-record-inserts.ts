// Inserting entity records: creates (one record, grouped with creates of the same entity arriving
// meanwhile; or a bulk create in one statement), imports (all or nothing, in chunks) and seeds (once per
// entity). Every insert feeds the planner statistics keeper.
import type { Database, Queryable } from './database';
import {
  COLUMNS,
  HOT,
  inInputOrder,
  NOW,
  run,
  type EntityRecordRow,
  type NewEntityRecord,
} from './entity-records-sql';
import { groupInserts } from './insert-groups';
import type { StatisticsKeeper } from './statistics-keeper';

/** CREATE_GROUP_MAX bounds how many waiting creates share one statement and commit. */
const CREATE_GROUP_MAX = 100;
/** ANALYZE_AFTER_ROWS is the import size after which table statistics are refreshed. */
const ANALYZE_AFTER_ROWS = 1000;
/** IMPORT_CHUNK is how many records one INSERT statement of an import carries. */
// Small enough that one statement stays well inside DATABASE_QUERY_TIMEOUT_MS on a busy machine (~0.4 s idle).
const IMPORT_CHUNK = 5_000;

/** EntityRecordInserts are the statements that add records. */
export interface EntityRecordInserts {
  /** insertMany inserts records in one statement and returns them in input order. */
  insertMany(appId: string, entity: string, records: NewEntityRecord[]): Promise<EntityRecordRow[]>;
  /** importMany inserts records all or nothing, in chunks of one transaction; rows in input order. */
  importMany(appId: string, entity: string, records: NewEntityRecord[]): Promise<EntityRecordRow[]>;
  /** seedOnce inserts records the first time an entity is seeded for the app; later calls insert nothing. */
  seedOnce(appId: string, entity: string, records: NewEntityRecord[]): Promise<number>;
}

/**
 * insertRecords inserts records on tx in one statement (an existing id is skipped) and returns the rows
 * inserted in input order; statistics is told how many.
 */
export async function insertRecords(
  tx: Queryable,
  statistics: StatisticsKeeper,
  appId: string,
  entity: string,
  records: NewEntityRecord[],
): Promise<EntityRecordRow[]> {
  const [only] = records;
  if (records.length === 1 && only) {
    // One record (a create): plain VALUES cost the engine about a fifth less than unpacking a JSON array.
    const rows = await run<EntityRecordRow>(
      tx,
      `INSERT INTO entity_records (app_id, entity, id, data, created_date, updated_date, created_by, created_by_id)
       VALUES ($1, $2, $3, $4::jsonb, ${NOW}, ${NOW}, $5, $6)
       ON CONFLICT (app_id, entity, id) DO NOTHING
       RETURNING ${COLUMNS}`,
      [appId, entity, only.id, JSON.stringify(only.data), only.created_by, only.created_by_id],
      HOT,
    );
    statistics.inserted(rows.length);
    return rows;
  }
  const rows = await run<EntityRecordRow>(
    tx,
    `INSERT INTO entity_records (app_id, entity, id, data, created_date, updated_date, created_by, created_by_id)
     SELECT $1, $2, r->>'id', r->'data', ${NOW}, ${NOW}, r->>'created_by', r->>'created_by_id'
     FROM jsonb_array_elements($3::jsonb) AS x(r)
     ON CONFLICT (app_id, entity, id) DO NOTHING
     RETURNING ${COLUMNS}`,
    [appId, entity, JSON.stringify(records)],
  );
  statistics.inserted(rows.length);
  return inInputOrder(rows, records);
}

/** createEntityRecordInserts returns the inserts of entity records on db, feeding statistics. */
export function createEntityRecordInserts(db: Database, statistics: StatisticsKeeper): EntityRecordInserts {
  // Creates waiting behind one another share a commit; one statement in flight per entity at a time, as
  // PGlite has one connection anyway and a PostgreSQL commit then carries a whole batch.
  const insertOne = groupInserts(
    (appId: string, entity: string, records: NewEntityRecord[]) =>
      insertRecords(db, statistics, appId, entity, records),
    { maxInFlight: 1, maxRecords: CREATE_GROUP_MAX },
  );

  return {
    /** insertMany: a single record (a create) may share its statement and commit with other creates. */
    insertMany: (appId, entity, records) => {
      const [only] = records;
      return records.length === 1 && only
        ? insertOne(appId, entity, only)
        : insertRecords(db, statistics, appId, entity, records);
    },

    /** importMany: one INSERT … SELECT FROM jsonb_array_elements per chunk of IMPORT_CHUNK records. */
    async importMany(appId, entity, records) {
      const imported = await db.transaction(async (tx) => {
        // now() is fixed for the transaction, so the stamps are known without reading every row back
        // (RETURNING 100k rows roughly doubles the import's time); a duplicate id fails the whole import.
        const [stamp] = await run<{ now: Date | string }>(tx, `SELECT ${NOW} AS now`, []);
        const now = stamp?.now ?? new Date();
        for (let start = 0; start < records.length; start += IMPORT_CHUNK) {
          await run(
            tx,
            `INSERT INTO entity_records (app_id, entity, id, data, created_date, updated_date, created_by, created_by_id)
             SELECT $1, $2, r->>'id', r->'data', ${NOW}, ${NOW}, r->>'created_by', r->>'created_by_id'
             FROM jsonb_array_elements($3::jsonb) AS x(r)`,
            [appId, entity, JSON.stringify(records.slice(start, start + IMPORT_CHUNK))],
          );
        }
        return records.map((record): EntityRecordRow => ({
          ...record,
          created_date: now,
          updated_date: now,
        }));
      });
      // NB: PGlite never auto-analyzes; without fresh statistics after a large import the planner sorts
      // every matching row instead of walking the created_date index (14 list pages/s on 100k rows).
      if (records.length >= ANALYZE_AFTER_ROWS) {
        await db.query('ANALYZE entity_records');
        statistics.analyzed();
      } else {
        statistics.inserted(records.length);
      }
      return imported;
    },

    async seedOnce(appId, entity, records) {
      return db.transaction(async (tx) => {
        const { rows } = await tx.query(
          `INSERT INTO entity_seeds (app_id, entity) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING entity`,
          [appId, entity],
        );
        if (rows.length === 0) return 0;
        return (await insertRecords(tx, statistics, appId, entity, records)).length;
      });
    },
  };
}
