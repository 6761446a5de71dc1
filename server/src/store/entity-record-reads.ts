// Reading entity records: one by id (reads of one selection arriving together share a statement), an
// offset page in sort order, a keyset (cursor) page, and a field's distinct values.
import type { Database } from './database';
import { compileSort, SqlParams, sortValueSql } from './entity-filter-sql';
import {
  COLUMNS,
  from,
  HOT,
  run,
  SOME_IDS,
  where,
  type EntityRecordRow,
  type PagePosition,
  type Selection,
} from './entity-records-sql';
import { groupStatements } from './statement-groups';

/** READ_GROUP_MAX bounds how many waiting reads by id share one statement. */
const READ_GROUP_MAX = 100;

/** EntityRecordReads are the statements that read records. */
export interface EntityRecordReads {
  /** findOne returns the record with id if the selection's rule admits it (grouped by selection). */
  findOne(selection: Selection, id: string): Promise<EntityRecordRow | null>;
  /** findMany returns one page of the selected records in sort order. */
  findMany(
    selection: Selection,
    page: { sort?: string | undefined; limit: number; skip: number },
  ): Promise<EntityRecordRow[]>;
  /** findPage returns up to limit records after `after` in (field, id) order, and whether more follow. */
  findPage(
    selection: Selection,
    page: { field: string; descending: boolean; limit: number; after?: PagePosition | undefined },
  ): Promise<{ rows: { row: EntityRecordRow; position: PagePosition }[]; more: boolean }>;
  /** distinctValues returns up to limit distinct non-null values of field in ascending order, after `after`. */
  distinctValues(
    selection: Selection,
    field: string,
    limit: number,
    after?: unknown,
  ): Promise<{ values: unknown[]; more: boolean }>;
}

/** createEntityRecordReads returns the reads of entity records on db. */
export function createEntityRecordReads(db: Database): EntityRecordReads {
  // Reads by id of one selection (same statement, same rule values) share one statement under load.
  const readOne = groupStatements<{ sql: string; params: unknown[]; id: string }, EntityRecordRow | null>(
    async (reads) => {
      const [first] = reads;
      if (!first) return [];
      const ids = reads.map((read) => read.id);
      const rows = await run<EntityRecordRow>(db, first.sql, [...first.params, ids], HOT);
      const byId = new Map(rows.map((row) => [row.id, row]));
      return ids.map((id) => byId.get(id) ?? null);
    },
    { maxInFlight: 1, maxItems: READ_GROUP_MAX },
  );

  return {
    /**
     * findOne: reads of one selection that arrive while one is running are answered together by one
     * statement (`id = ANY(…)`).
     */
    async findOne(selection, id) {
      const params = new SqlParams();
      const sql = `SELECT ${COLUMNS} FROM ${from(selection)} WHERE ${where(selection, params, SOME_IDS)}`;
      return readOne(`${sql}\u0000${JSON.stringify(params.values)}`, { sql, params: params.values, id });
    },

    async findMany(selection, page) {
      const params = new SqlParams();
      const condition = where(selection, params);
      const order = compileSort(page.sort, params, selection.visibility);
      const limit = params.add(page.limit);
      const offset = params.add(page.skip);
      return run<EntityRecordRow>(
        db,
        `SELECT ${COLUMNS} FROM ${from(selection)} WHERE ${condition} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`,
        params.values,
      );
    },

    /** findPage is keyset paging: ascending puts missing values first, descending last. */
    async findPage(selection, page) {
      const params = new SqlParams();
      const condition = where(selection, params);
      const e = `(${sortValueSql(page.field, params, selection.visibility)})`;
      let keyset = 'true';
      if (page.after) {
        const id = params.add(page.after.id);
        if (page.after.missing) {
          keyset = page.descending
            ? `(${e} IS NULL AND id > ${id})`
            : `((${e} IS NULL AND id > ${id}) OR ${e} IS NOT NULL)`;
        } else {
          const v = `${params.add(JSON.stringify(page.after.value))}::jsonb`;
          keyset = page.descending
            ? `(${e} < ${v} OR (${e} = ${v} AND id > ${id}) OR ${e} IS NULL)`
            : `(${e} > ${v} OR (${e} = ${v} AND id > ${id}))`;
        }
      }
      const order = page.descending ? 'DESC NULLS LAST' : 'ASC NULLS FIRST';
      const limit = params.add(page.limit + 1);
      const rows = await run<EntityRecordRow & { sort_value: unknown; sort_missing: boolean }>(
        db,
        `SELECT ${COLUMNS}, ${e} AS sort_value, ${e} IS NULL AS sort_missing FROM ${from(selection)}
         WHERE ${condition} AND ${keyset} ORDER BY ${e} ${order}, id ASC LIMIT ${limit}`,
        params.values,
      );
      return {
        rows: rows.slice(0, page.limit).map(({ sort_value, sort_missing, ...row }) => ({
          row,
          position: { missing: sort_missing, value: sort_value, id: row.id },
        })),
        more: rows.length > page.limit,
      };
    },

    async distinctValues(selection, field, limit, after) {
      const params = new SqlParams();
      const condition = where(selection, params);
      const e = `(${sortValueSql(field, params, selection.visibility)})`;
      const keyset = after === undefined ? 'true' : `${e} > ${params.add(JSON.stringify(after))}::jsonb`;
      const rows = await run<{ v: unknown }>(
        db,
        `SELECT DISTINCT ${e} AS v FROM ${from(selection)}
         WHERE ${condition} AND ${e} IS NOT NULL AND ${e} <> 'null'::jsonb AND ${keyset}
         ORDER BY v LIMIT ${params.add(limit + 1)}`,
        params.values,
      );
      return { values: rows.slice(0, limit).map((row) => row.v), more: rows.length > limit };
    },
  };
}
