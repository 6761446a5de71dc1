// What every statement on entity_records is built from: the row and selection types, the columns, the
// WHERE clause of a selection (app, entity, the caller's rule and query), and the one way statements run
// (a data exception raised by a caller's query is that caller's bad input). The statements themselves are
// in entity-record-{reads,counts,inserts,updates,deletes}.ts, composed by entity-records-store.ts.
import { invalidValueMessage, sqlState } from '../lib/database-errors';
import { InvalidInputError } from '../lib/errors';
import type { ReadScope } from '../rules/read-scope';
import type { Queryable, QueryOptions } from './database';
import { compileFilter, ISO, type Filter, type SqlParams } from './entity-filter-sql';

/** PagePosition is where a cursor page resumes: the last row's sort value (or its absence) and id. */
export interface PagePosition {
  missing: boolean;
  value: unknown;
  id: string;
}

/**
 * EntityRecordRow is one stored record: its fields in `data`, its stamps in columns. Statements select the
 * stamps as ISO text (COLUMNS); a Date is still taken where a row is built in code.
 */
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

/** RecordChange is the new data of one record, by id. */
export interface RecordChange {
  id: string;
  data: Record<string, unknown>;
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

/**
 * stampsAsIso selects the stamp columns as the API's ISO text. The database writes a timestamp out as text
 * anyway; parsing that into a Date and formatting it back cost 14 % of an uncached list's CPU. Stamps are
 * server times (4-digit years), so the text is exactly what `Date#toISOString` would give. ORDER BY must
 * then name the columns qualified (`entity_records.created_date`), or it sorts by this text, unindexed.
 */
const selectedColumns = (table: string) =>
  `${table}id, ${table}data, ` +
  `to_char(${table}created_date AT TIME ZONE 'UTC', ${ISO}) AS created_date, ` +
  `to_char(${table}updated_date AT TIME ZONE 'UTC', ${ISO}) AS updated_date, ` +
  `${table}created_by, ${table}created_by_id`;
export const COLUMNS = selectedColumns('');
export const T_COLUMNS = selectedColumns('t.');
/**
 * HOT marks the statements every create and get-by-id runs: kept prepared on their connection. Their text
 * varies only with the entity's rules (values are parameters), so their shapes are few.
 */
export const HOT: QueryOptions = { reuse: true };
export const NOW = "date_trunc('milliseconds', now())";

// Each user presented as an entity record. Only public columns go into `data`, so a caller's query, sort,
// distinct or aggregate can never reach password_hash or approved (a `q` on them matches nothing).
// Built-in fields are applied after `custom` so a custom key never shadows them (as toPublicUser does).
const USERS_AS_RECORDS = `(SELECT app_id, 'User'::text AS entity, id,
    custom || jsonb_build_object('email', email, 'full_name', full_name, 'role', role,
      'is_verified', is_verified, 'disabled', disabled, 'app_id', app_id) AS data,
    created_date, updated_date, NULL::text AS created_by, NULL::text AS created_by_id
  FROM users) AS entity_records`;

/** from names the relation a selection reads. */
export const from = (selection: Selection) =>
  selection.source === 'users' ? USERS_AS_RECORDS : 'entity_records';

/**
 * LISTED is the predicate of the list index (migration 8): every stored row meets it, and only statements
 * over many records state it, so the planner can never take that index for a by-id lookup.
 */
const LISTED = "created_date > '-infinity'";

/** SOME_IDS asks `where` for a by-id clause over several ids (reads grouped by findOne). */
export const SOME_IDS = Symbol('some ids');

/**
 * where returns the WHERE clause of a selection. `oneId` is for by-id statements: they leave LISTED out,
 * so the primary key is their only index whatever the planner's statistics say.
 */
export function where(selection: Selection, params: SqlParams, oneId?: string | typeof SOME_IDS): string {
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
export async function run<T>(
  db: Queryable,
  sql: string,
  params: unknown[],
  options?: QueryOptions,
): Promise<T[]> {
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

/** inInputOrder sorts rows a statement returned into the order of the records it was given (by id). */
export function inInputOrder<Row extends { id: string }>(rows: Row[], input: { id: string }[]): Row[] {
  const order = new Map(input.map((item, index) => [item.id, index]));
  return rows.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
}
