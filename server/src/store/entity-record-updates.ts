// Changing entity records: one by id, the selected records (update-many, bulk update) and upserts by key.
// Each locks the rows it reads (FOR UPDATE), asks its caller's plan for their new data (a plan may throw
// to roll everything back) and writes it with a fresh updated_date, all in one transaction.
import type { Database, Queryable } from './database';
import { compileFilter, SqlParams, type Filter } from './entity-filter-sql';
import { insertRecords } from './entity-record-inserts';
import {
  COLUMNS,
  inInputOrder,
  NOW,
  run,
  T_COLUMNS,
  where,
  type EntityRecordRow,
  type NewEntityRecord,
  type RecordChange,
  type Selection,
} from './entity-records-sql';
import type { StatisticsKeeper } from './statistics-keeper';

/** EntityRecordUpdates are the statements that change records. */
export interface EntityRecordUpdates {
  /** updateOne locks the record with id if the rule admits it and writes what change returns for it. */
  updateOne(
    selection: Selection,
    id: string,
    change: (row: EntityRecordRow) => Record<string, unknown>,
  ): Promise<EntityRecordRow | null>;
  /** updateSelected locks at most `limit` selected records (only `ids` if given) and writes plan's changes. */
  updateSelected(
    selection: Selection,
    options: { limit: number; ids?: string[] },
    plan: (rows: EntityRecordRow[]) => RecordChange[],
  ): Promise<{ rows: EntityRecordRow[]; more: boolean }>;
  /** upsertByKey locks the readable records matching keyValues and inserts and updates what plan returns. */
  upsertByKey(
    appId: string,
    entity: string,
    key: string[],
    keyValues: unknown[][],
    readRule: Filter | boolean,
    updateRule: Filter | boolean,
    plan: (existing: { row: EntityRecordRow; admitted: boolean }[]) => {
      inserts: NewEntityRecord[];
      updates: RecordChange[];
    },
  ): Promise<{ inserted: EntityRecordRow[]; updated: EntityRecordRow[] }>;
}

/** writeData replaces the data of records by id (ids unique) in one statement; rows come back in input order. */
async function writeData(
  tx: Queryable,
  appId: string,
  entity: string,
  changes: RecordChange[],
): Promise<EntityRecordRow[]> {
  if (changes.length === 0) return [];
  const rows = await run<EntityRecordRow>(
    tx,
    `UPDATE entity_records AS t SET data = u.r->'data', updated_date = ${NOW}
     FROM jsonb_array_elements($3::jsonb) AS u(r)
     WHERE t.app_id = $1 AND t.entity = $2 AND t.id = u.r->>'id'
     RETURNING ${T_COLUMNS}`,
    [appId, entity, JSON.stringify(changes)],
  );
  return inInputOrder(rows, changes);
}

/** createEntityRecordUpdates returns the updates of entity records on db (upserts feed statistics). */
export function createEntityRecordUpdates(db: Database, statistics: StatisticsKeeper): EntityRecordUpdates {
  return {
    async updateOne(selection, id, change) {
      return db.transaction(async (tx) => {
        const params = new SqlParams();
        const [row] = await run<EntityRecordRow>(
          tx,
          `SELECT ${COLUMNS} FROM entity_records WHERE ${where(selection, params, id)} FOR UPDATE`,
          params.values,
        );
        if (!row) return null;
        const [updated] = await run<EntityRecordRow>(
          tx,
          `UPDATE entity_records SET data = $4::jsonb, updated_date = ${NOW}
           WHERE app_id = $1 AND entity = $2 AND id = $3 RETURNING ${COLUMNS}`,
          [selection.appId, selection.entity, id, JSON.stringify(change(row))],
        );
        return updated ?? null;
      });
    },

    /**
     * updateSelected locks the selected records (at most `limit`, by id; only `ids` when given), asks plan
     * for their new data and writes them in one statement. `more` says whether selected records remain
     * beyond limit.
     */
    async updateSelected(selection, options, plan) {
      return db.transaction(async (tx) => {
        const params = new SqlParams();
        const condition = where(selection, params);
        const only = options.ids ? ` AND id = ANY(${params.add(options.ids)}::text[])` : '';
        const limit = params.add(options.limit + 1);
        const found = await run<EntityRecordRow>(
          tx,
          `SELECT ${COLUMNS} FROM entity_records WHERE ${condition}${only} ORDER BY id LIMIT ${limit} FOR UPDATE`,
          params.values,
        );
        const more = found.length > options.limit;
        const changes = plan(found.slice(0, options.limit));
        if (changes.length === 0) return { rows: [], more };
        return { rows: await writeData(tx, selection.appId, selection.entity, changes), more };
      });
    },

    /**
     * upsertByKey serialises upserts of one entity (transaction-scoped advisory lock), locks the records
     * `readRule` admits whose top-level `key` fields equal one of keyValues (each an array of values in key
     * order), tells plan which of them `updateRule` admits, then inserts and updates what plan returns.
     * Records the read rule hides are never matched, so they cannot be probed.
     */
    async upsertByKey(appId, entity, key, keyValues, readRule, updateRule, plan) {
      return db.transaction(async (tx) => {
        await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`entity-upsert:${appId}:${entity}`]);
        const params = new SqlParams();
        const app = params.add(appId);
        const name = params.add(entity);
        const readable = compileFilter(readRule, params);
        const admitted = compileFilter(updateRule, params);
        const tuple = key.map((field) => `data -> ${params.add(field)}::text`).join(', ');
        const wanted = params.add(JSON.stringify(keyValues));
        const found = await run<EntityRecordRow & { admitted: boolean }>(
          tx,
          `SELECT ${COLUMNS}, (${admitted}) AS admitted FROM entity_records
           WHERE app_id = ${app} AND entity = ${name} AND ${readable}
             AND jsonb_build_array(${tuple}) IN (SELECT value FROM jsonb_array_elements(${wanted}::jsonb))
           ORDER BY entity_records.created_date, id FOR UPDATE`,
          params.values,
        );
        const { inserts, updates } = plan(found.map(({ admitted: ok, ...row }) => ({ row, admitted: ok })));
        const inserted = inserts.length ? await insertRecords(tx, statistics, appId, entity, inserts) : [];
        return { inserted, updated: await writeData(tx, appId, entity, updates) };
      });
    },
  };
}
