// Over 300 lines on purpose: every SQL statement on entity_records lives here, so a statement and the plan
// `hot-query-plans.test.ts` checks for it are read in one place (the filter compiler is entity-filter-sql.ts).
import { invalidValueMessage, sqlState } from '../lib/database-errors';
import { InvalidInputError } from '../lib/errors';
import type { ReadScope } from '../rules/read-scope';
import type { Database, Queryable, QueryOptions } from './database';
import { compileFilter, compileSort, SqlParams, sortValueSql, type Filter } from './entity-filter-sql';
import { aggregateSql, type AggregatePlan } from './entity-aggregate-sql';
import { groupInserts } from './insert-groups';
import { groupStatements } from './statement-groups';
import { createStatisticsKeeper, type StatisticsKeeper } from './statistics-keeper';

/** PagePosition is where a cursor page resumes: the last row's sort value (or its absence) and id. */
export interface PagePosition {
  missing: boolean;
  value: unknown;
  id: string;
}

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
  visibility?: ReadScope;
  /** source 'users' reads the built-in User entity from the users table (public columns only); reads only. */
  source?: 'users';
}

/** IMPORT_CHUNK is how many records one INSERT statement of an import carries. */
/** ANALYZE_AFTER_ROWS is the import size after which table statistics are refreshed. */
const ANALYZE_AFTER_ROWS = 1000;
// Small enough that one statement stays well inside DATABASE_QUERY_TIMEOUT_MS on a busy machine (~0.4 s idle).
const IMPORT_CHUNK = 5_000;

const COLUMNS = 'id, data, created_date, updated_date, created_by, created_by_id';
const T_COLUMNS = COLUMNS.split(', ')
  .map((column) => `t.${column}`)
  .join(', ');
/**
 * HOT marks the statements every create and get-by-id runs: kept prepared on their connection. Their text
 * varies only with the entity's rules (values are parameters), so their shapes are few.
 */
const HOT: QueryOptions = { reuse: true };
/** READ_GROUP_MAX bounds how many waiting reads by id share one statement. */
const READ_GROUP_MAX = 100;
/** CREATE_GROUP_MAX bounds how many waiting creates share one statement and commit. */
const CREATE_GROUP_MAX = 100;
const NOW = "date_trunc('milliseconds', now())";

// Each user presented as an entity record. Only public columns go into `data`, so a caller's query, sort,
// distinct or aggregate can never reach password_hash or approved (a `q` on them matches nothing).
// Built-in fields are applied after `custom` so a custom key never shadows them (as toPublicUser does).
const USERS_AS_RECORDS = `(SELECT app_id, 'User'::text AS entity, id,
    custom || jsonb_build_object('email', email, 'full_name', full_name, 'role', role,
      'is_verified', is_verified, 'disabled', disabled, 'app_id', app_id) AS data,
    created_date, updated_date, NULL::text AS created_by, NULL::text AS created_by_id
  FROM users) AS entity_records`;

/** from names the relation a selection reads. */
const from = (selection: Selection) => (selection.source === 'users' ? USERS_AS_RECORDS : 'entity_records');

/**
 * LISTED is the predicate of the list index (migration 8): every stored row meets it, and only statements
 * over many records state it, so the planner can never take that index for a by-id lookup.
 */
const LISTED = "created_date > '-infinity'";

/** SOME_IDS asks `where` for a by-id clause over several ids (reads grouped by readOne). */
const SOME_IDS = Symbol('some ids');

/**
 * where returns the WHERE clause of a selection. `oneId` is for by-id statements: they leave LISTED out,
 * so the primary key is their only index whatever the planner's statistics say.
 */
function where(selection: Selection, params: SqlParams, oneId?: string | typeof SOME_IDS): string {
  const app = params.add(selection.appId);
  const entity = params.add(selection.entity);
  const rule = compileFilter(selection.rule, params);
  const query =
    selection.query === undefined ? 'true' : compileFilter(selection.query, params, selection.visibility);
  // SOME_IDS leaves the ids to the last parameter, which the caller adds: a text[] of the ids read together.
  const rows =
    oneId === undefined
      ? LISTED
      : oneId === SOME_IDS
        ? `id = ANY($${params.values.length + 1}::text[])`
        : `id = ${params.add(oneId)}`;
  return `app_id = ${app} AND entity = ${entity} AND ${rows} AND ${rule} AND ${query}`;
}

// A data exception raised while evaluating a caller's query (e.g. a regex PostgreSQL rejects) is the
// caller's input problem, not a server failure.
async function run<T>(db: Queryable, sql: string, params: unknown[], options?: QueryOptions): Promise<T[]> {
  try {
    return (await db.query<T>(sql, params, options)).rows;
  } catch (error) {
    // The driver's text stays in the log (as the cause): the caller gets a fixed message.
    const state = sqlState(error);
    if (state?.startsWith('22')) {
      throw new InvalidInputError(`Invalid query: ${invalidValueMessage(state)}`, { cause: error });
    }
    throw error;
  }
}

/**
 * createEntityRecordsStore returns the SQL for entity records. Inserts feed `statistics` (by default a keeper
 * of entity_records' planner statistics on db).
 */
export function createEntityRecordsStore(
  db: Database,
  statistics: StatisticsKeeper = createStatisticsKeeper(db, 'entity_records'),
) {
  async function insert(tx: Queryable, appId: string, entity: string, records: NewEntityRecord[]) {
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
    const order = new Map(records.map((record, index) => [record.id, index]));
    return rows.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  }
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
  // Creates waiting behind one another share a commit; one statement in flight per entity at a time, as
  // PGlite has one connection anyway and a PostgreSQL commit then carries a whole batch.
  const insertOne = groupInserts(
    (appId: string, entity: string, records: NewEntityRecord[]) => insert(db, appId, entity, records),
    { maxInFlight: 1, maxRecords: CREATE_GROUP_MAX },
  );

  /** writeData replaces the data of records by id (ids unique) in one statement; rows come back in input order. */
  async function writeData(
    tx: Queryable,
    appId: string,
    entity: string,
    changes: { id: string; data: Record<string, unknown> }[],
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
    const order = new Map(changes.map((change, index) => [change.id, index]));
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
        `SELECT ${COLUMNS} FROM ${from(selection)} WHERE ${condition} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`,
        params.values,
      );
    },

    /**
     * findPage returns up to limit records after `after` in (field, id) order (keyset paging; ascending puts
     * missing values first, descending last), each with its sort position, and whether more follow.
     */
    async findPage(
      selection: Selection,
      page: { field: string; descending: boolean; limit: number; after?: PagePosition | undefined },
    ) {
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

    /** distinctValues returns up to limit distinct non-null values of field in ascending order, after `after`. */
    async distinctValues(selection: Selection, field: string, limit: number, after?: unknown) {
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

    /** count returns how many records the selection holds. */
    async count(selection: Selection): Promise<number> {
      const params = new SqlParams();
      const condition = where(selection, params);
      const rows = await run<{ n: number | string }>(
        db,
        `SELECT count(*) AS n FROM ${from(selection)} WHERE ${condition}`,
        params.values,
      );
      return Number(rows[0]?.n ?? 0);
    },

    /**
     * aggregate groups the selected records (rule and query in the WHERE clause) by plan and returns at most
     * plan.limit rows keyed by the plan's names, and whether more rows existed.
     */
    async aggregate(selection: Selection, plan: AggregatePlan) {
      const params = new SqlParams();
      const condition = where(selection, params);
      const sql = aggregateSql(plan, condition, params, selection.visibility, from(selection));
      const found = await run<Record<string, unknown>>(db, sql, params.values);
      const rows = found.slice(0, plan.limit).map((row) => {
        const out: Record<string, unknown> = {};
        plan.groups.forEach((group, i) => (out[group.name] = row[`g${i}`] ?? null));
        plan.measures.forEach((measure, i) => (out[measure.name] = row[`m${i}`] ?? null));
        return out;
      });
      return { rows, truncated: found.length > plan.limit };
    },

    /**
     * importMany inserts records all or nothing: one transaction, one INSERT … SELECT FROM
     * jsonb_array_elements per chunk of IMPORT_CHUNK records. Rows come back in input order.
     */
    async importMany(appId: string, entity: string, records: NewEntityRecord[]) {
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

    /**
     * findOne returns the record with id if the selection's rule admits it. Reads of one selection that
     * arrive while one is running are answered together by one statement (`id = ANY(…)`).
     */
    async findOne(selection: Selection, id: string): Promise<EntityRecordRow | null> {
      const params = new SqlParams();
      const sql = `SELECT ${COLUMNS} FROM ${from(selection)} WHERE ${where(selection, params, SOME_IDS)}`;
      return readOne(`${sql}\u0000${JSON.stringify(params.values)}`, { sql, params: params.values, id });
    },

    /**
     * insertMany inserts records in one statement and returns them in input order. A single record (a
     * create) may share its statement and commit with creates of the same entity arriving meanwhile.
     */
    insertMany: (appId: string, entity: string, records: NewEntityRecord[]) => {
      const [only] = records;
      return records.length === 1 && only
        ? insertOne(appId, entity, only)
        : insert(db, appId, entity, records);
    },

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
     * for their new data (plan may throw to roll everything back) and writes them with a fresh updated_date
     * in one statement, all in one transaction. `more` says whether selected records remain beyond limit.
     */
    async updateSelected(
      selection: Selection,
      options: { limit: number; ids?: string[] },
      plan: (rows: EntityRecordRow[]) => { id: string; data: Record<string, unknown> }[],
    ): Promise<{ rows: EntityRecordRow[]; more: boolean }> {
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
     * order), tells plan which of them `updateRule` admits, then inserts and updates what plan returns, all
     * in one transaction. Records the read rule hides are never matched, so they cannot be probed.
     */
    async upsertByKey(
      appId: string,
      entity: string,
      key: string[],
      keyValues: unknown[][],
      readRule: Filter | boolean,
      updateRule: Filter | boolean,
      plan: (existing: { row: EntityRecordRow; admitted: boolean }[]) => {
        inserts: NewEntityRecord[];
        updates: { id: string; data: Record<string, unknown> }[];
      },
    ): Promise<{ inserted: EntityRecordRow[]; updated: EntityRecordRow[] }> {
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
           ORDER BY created_date, id FOR UPDATE`,
          params.values,
        );
        const { inserts, updates } = plan(found.map(({ admitted: ok, ...row }) => ({ row, admitted: ok })));
        const inserted = inserts.length ? await insert(tx, appId, entity, inserts) : [];
        return { inserted, updated: await writeData(tx, appId, entity, updates) };
      });
    },

    /** deleteOne deletes the record with id if the rule admits it and returns it. */
    async deleteOne(selection: Selection, id: string): Promise<EntityRecordRow | null> {
      const params = new SqlParams();
      const rows = await run<EntityRecordRow>(
        db,
        `DELETE FROM entity_records WHERE ${where(selection, params, id)} RETURNING ${COLUMNS}`,
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
