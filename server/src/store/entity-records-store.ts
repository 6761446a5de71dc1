import { InvalidInputError } from '../lib/errors';
import type { Database, Queryable } from './database';
import { compileFilter, compileSort, SqlParams, type Filter, type Visibility } from './entity-filter-sql';

/** EntityRecordRow is one stored record: its fields in `data`, its stamps in columns. */
export interface EntityRecordRow {
  id: string;
  data: Record<string, unknown>;
  created_date: Date | string;
  updated_date: Date | string;
  created_by: string | null;
  created_by_id: string | null;
}

/** NewEntityRecord is what inserting a record needs; the store stamps the dates. */
export interface NewEntityRecord {
  id: string;
  data: Record<string, unknown>;
  created_by: string | null;
  created_by_id: string | null;
}

/**
 * Selection says which records of one entity a statement touches: the caller's query, the access rule
 * resolved for the caller (true = all, false = none) and which fields the caller may see. The rule is part
 * of the WHERE clause, so LIMIT/OFFSET apply to readable rows only.
 */
export interface Selection {
  appId: string;
  entity: string;
  query?: unknown;
  rule: Filter | boolean;
  visibility?: Visibility;
}

const COLUMNS = 'id, data, created_date, updated_date, created_by, created_by_id';
const NOW = "date_trunc('milliseconds', now())";

function where(selection: Selection, params: SqlParams): string {
  const app = params.add(selection.appId);
  const entity = params.add(selection.entity);
  const rule = compileFilter(selection.rule, params);
  const query =
    selection.query === undefined ? 'true' : compileFilter(selection.query, params, selection.visibility);
  return `app_id = ${app} AND entity = ${entity} AND ${rule} AND ${query}`;
}

// A data exception raised while evaluating a caller's query (e.g. a regex PostgreSQL rejects) is the
// caller's input problem, not a server failure.
async function run<T>(db: Queryable, sql: string, params: unknown[]): Promise<T[]> {
  try {
    return (await db.query<T>(sql, params)).rows;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('22')) {
      throw new InvalidInputError(`Invalid query: ${(error as Error).message}`);
    }
    throw error;
  }
}

/** createEntityRecordsStore returns the SQL for entity records. */
export function createEntityRecordsStore(db: Database) {
  async function insert(tx: Queryable, appId: string, entity: string, records: NewEntityRecord[]) {
    const rows = await run<EntityRecordRow>(
      tx,
      `INSERT INTO entity_records (app_id, entity, id, data, created_date, updated_date, created_by, created_by_id)
       SELECT $1, $2, r->>'id', r->'data', ${NOW}, ${NOW}, r->>'created_by', r->>'created_by_id'
       FROM jsonb_array_elements($3::jsonb) AS x(r)
       ON CONFLICT (app_id, entity, id) DO NOTHING
       RETURNING ${COLUMNS}`,
      [appId, entity, JSON.stringify(records)],
    );
    const order = new Map(records.map((record, index) => [record.id, index]));
    return rows.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  }

  return {
    /** findMany returns one page of the selected records in sort order. */
    async findMany(selection: Selection, page: { sort?: string | undefined; limit: number; skip: number }) {
      const params = new SqlParams();
      const condition = where(selection, params);
      const order = compileSort(page.sort, params, selection.visibility);
      const limit = params.add(page.limit);
      const offset = params.add(page.skip);
      return run<EntityRecordRow>(
        db,
        `SELECT ${COLUMNS} FROM entity_records WHERE ${condition} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`,
        params.values,
      );
    },

    /** count returns how many records the selection holds. */
    async count(selection: Selection): Promise<number> {
      const params = new SqlParams();
      const condition = where(selection, params);
      const rows = await run<{ n: number | string }>(
        db,
        `SELECT count(*) AS n FROM entity_records WHERE ${condition}`,
        params.values,
      );
      return Number(rows[0]?.n ?? 0);
    },

    /** findOne returns the record with id if the selection's rule admits it. */
    async findOne(selection: Selection, id: string): Promise<EntityRecordRow | null> {
      const params = new SqlParams();
      const condition = where(selection, params);
      const rows = await run<EntityRecordRow>(
        db,
        `SELECT ${COLUMNS} FROM entity_records WHERE ${condition} AND id = ${params.add(id)}`,
        params.values,
      );
      return rows[0] ?? null;
    },

    /** insertMany inserts records in one statement and returns them in input order. */
    insertMany: (appId: string, entity: string, records: NewEntityRecord[]) =>
      insert(db, appId, entity, records),

    /**
     * updateOne locks the record with id if the rule admits it, asks change for its new data (change may
     * throw to abort) and writes it with a fresh updated_date, all in one transaction.
     */
    async updateOne(
      selection: Selection,
      id: string,
      change: (row: EntityRecordRow) => Record<string, unknown>,
    ): Promise<EntityRecordRow | null> {
      return db.transaction(async (tx) => {
        const params = new SqlParams();
        const condition = where(selection, params);
        const [row] = await run<EntityRecordRow>(
          tx,
          `SELECT ${COLUMNS} FROM entity_records WHERE ${condition} AND id = ${params.add(id)} FOR UPDATE`,
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

    /** deleteOne deletes the record with id if the rule admits it and returns it. */
    async deleteOne(selection: Selection, id: string): Promise<EntityRecordRow | null> {
      const params = new SqlParams();
      const condition = where(selection, params);
      const rows = await run<EntityRecordRow>(
        db,
        `DELETE FROM entity_records WHERE ${condition} AND id = ${params.add(id)} RETURNING ${COLUMNS}`,
        params.values,
      );
      return rows[0] ?? null;
    },

    /** deleteMany deletes every selected record and returns them. */
    async deleteMany(selection: Selection): Promise<EntityRecordRow[]> {
      const params = new SqlParams();
      const condition = where(selection, params);
      return run<EntityRecordRow>(
        db,
        `DELETE FROM entity_records WHERE ${condition} RETURNING ${COLUMNS}`,
        params.values,
      );
    },

    /** seedOnce inserts records the first time an entity is seeded for the app; later calls insert nothing. */
    async seedOnce(appId: string, entity: string, records: NewEntityRecord[]): Promise<number> {
      return db.transaction(async (tx) => {
        const { rows } = await tx.query(
          `INSERT INTO entity_seeds (app_id, entity) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING entity`,
          [appId, entity],
        );
        if (rows.length === 0) return 0;
        return (await insert(tx, appId, entity, records)).length;
      });
    },
  };
}

export type EntityRecordsStore = ReturnType<typeof createEntityRecordsStore>;
