import { InvalidInputError } from '../../lib/errors';
import { withJsonText } from '../../lib/json-text';
import type { Caller } from '../../rules/caller';
import type { EntityRecordRow } from '../../store/entity-records-store';
import { decodeCursor, encodeCursor, type CursorState } from './entity-cursor';
import type { EntitiesContext } from './entities-context';
import type { EntityRecord } from './record-presenter';
import { MAX_LIST_LIMIT } from '../../schemas/entities';

// Reading entity records: get one, list/filter a page, a v2 cursor page (or distinct values), count.

/** DEFAULT_LIST_LIMIT caps a list sent without `limit`. */
export const DEFAULT_LIST_LIMIT = 1000;
// MAX_LIST_LIMIT (schemas/entities.ts) is the largest `limit` honoured; larger ones are lowered.
export { MAX_LIST_LIMIT };
/** MAX_DISTINCT_LIMIT is the largest `limit` of a distinct page. */
export const MAX_DISTINCT_LIMIT = 1000;
/** DEFAULT_PAGE_LIMIT is the v2 page size when `limit` is absent (the SDK always sends one). */
export const DEFAULT_PAGE_LIMIT = 100;

/** PageOptions is a v2 list request after parsing (`q` still JSON text or undefined). */
export interface PageOptions {
  query?: unknown;
  sort?: string | undefined;
  limit?: number | undefined;
  fields?: string[] | undefined;
  distinct?: string | undefined;
  cursor?: string | undefined;
}

/** ListOptions is a list or filter request after parsing. */
export interface ListOptions {
  query?: unknown;
  sort?: string | undefined;
  limit?: number | undefined;
  skip?: number | undefined;
  fields?: string[] | undefined;
}

/**
 * LIST_MAX_BYTES bounds the JSON of one list answer: records past it are left for the next page (the
 * caller pages on with `skip`), whatever `limit` asked (5000 records of 25 KB would be 126 MB).
 */
export const LIST_MAX_BYTES = 16 * 1024 * 1024;

/**
 * withinBytes keeps the first records whose JSON fits maxBytes (at least one), carrying that JSON to the
 * route (withJsonText), so measuring costs no second serialization.
 */
export function withinBytes(records: EntityRecord[], maxBytes: number): EntityRecord[] {
  const parts: string[] = [];
  let size = 2;
  for (const record of records) {
    const text = JSON.stringify(record);
    if (parts.length > 0 && size + text.length + 1 > maxBytes) break;
    parts.push(text);
    size += text.length + 1;
  }
  const kept = parts.length === records.length ? records : records.slice(0, parts.length);
  // Brackets on the end parts, so the one join makes the whole text flat (a send measures it in bytes).
  const last = parts.length - 1;
  if (last < 0) return withJsonText(kept, '[]');
  parts[0] = `[${parts[0]}`;
  parts[last] = `${parts[last]}]`;
  return withJsonText(kept, parts.join(','));
}

// A page the read cache answered again is presented once per projection: the same answer object comes
// back, with its JSON text. Fresh rows (no read cache) are presented once, with nothing kept.
const presentedPages = new WeakMap<EntityRecordRow[], Map<string, EntityRecord[]>>();

/** readRecords returns the read actions of the entities service. */
export function readRecords(ctx: EntitiesContext) {
  const { store, requireReadable, selection, presenter, present, notFound } = ctx;
  const rowsShared = ctx.deps.rowsShared === true;
  return {
    /** list returns one page of the records the caller may read, filtered, sorted and projected. */
    async list(appId: string, name: string, caller: Caller, options: ListOptions): Promise<EntityRecord[]> {
      const entity = requireReadable(name, caller);
      const limit = Math.min(options.limit || DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT);
      const rows = await store.findMany(selection(appId, entity, caller, 'read', options.query), {
        sort: options.sort,
        limit,
        skip: options.skip ?? 0,
      });
      const presentPage = () =>
        withinBytes(rows.map(presenter(entity, caller, options.fields)), LIST_MAX_BYTES);
      if (!rowsShared) return presentPage();
      const projection = options.fields?.join(',') ?? '';
      let pages = presentedPages.get(rows);
      if (!pages) presentedPages.set(rows, (pages = new Map()));
      let records = pages.get(projection);
      if (!records) {
        records = presentPage();
        pages.set(projection, records);
      }
      return records;
    },

    /**
     * listPage returns one cursor page `{items, next_cursor, has_more}` (keyset on one sort field + id), or
     * with `distinct` the field's distinct values ascending. The cursor carries the walk; a request that
     * sends a different query, sort, fields or distinct with it is a 400.
     */
    async listPage(appId: string, name: string, caller: Caller, options: PageOptions) {
      const entity = requireReadable(name, caller);
      let walk: CursorState = {
        q: options.query,
        sort: options.sort,
        fields: options.fields,
        distinct: options.distinct,
        at: {},
      };
      let resume = false;
      if (options.cursor) {
        const state = decodeCursor(options.cursor);
        const differs = (sent: unknown, carried: unknown) =>
          sent !== undefined && JSON.stringify(sent) !== JSON.stringify(carried);
        if (
          differs(options.query, state.q) ||
          differs(options.sort, state.sort) ||
          differs(options.fields, state.fields) ||
          differs(options.distinct, state.distinct)
        ) {
          throw new InvalidInputError(
            'A cursor cannot be combined with a different query, sort, fields or distinct',
          );
        }
        walk = state;
        resume = true;
      }
      const chosen = selection(appId, entity, caller, 'read', walk.q);
      if (walk.distinct !== undefined) {
        const limit = Math.min(options.limit || DEFAULT_PAGE_LIMIT, MAX_DISTINCT_LIMIT);
        const page = await store.distinctValues(chosen, walk.distinct, limit, resume ? walk.at.v : undefined);
        const last = page.values[page.values.length - 1];
        return {
          items: page.values,
          next_cursor: page.more ? encodeCursor({ ...walk, at: { v: last } }) : null,
          has_more: page.more,
        };
      }
      const terms = (walk.sort ?? '-created_date')
        .split(',')
        .map((term) => term.trim())
        .filter(Boolean);
      if (terms.length > 1) throw new InvalidInputError('A cursor page sorts by one field (and id)');
      const term = terms[0] ?? '-created_date';
      const descending = term.startsWith('-');
      const field = term.replace(/^[-+]/, '');
      const limit = Math.min(options.limit || DEFAULT_PAGE_LIMIT, MAX_LIST_LIMIT);
      const after =
        resume && walk.at.i !== undefined
          ? { missing: walk.at.m === true, value: walk.at.v, id: walk.at.i }
          : undefined;
      const page = await store.findPage(chosen, { field, descending, limit, after });
      const last = page.rows[page.rows.length - 1];
      const show = presenter(entity, caller, walk.fields);
      return {
        items: page.rows.map(({ row }) => show(row)),
        next_cursor:
          page.more && last
            ? encodeCursor({
                ...walk,
                at: { m: last.position.missing, v: last.position.value, i: last.position.id },
              })
            : null,
        has_more: page.more,
      };
    },

    /** count returns how many records matching query the caller may read. */
    async count(appId: string, name: string, caller: Caller, query?: unknown): Promise<number> {
      const entity = requireReadable(name, caller);
      return store.count(selection(appId, entity, caller, 'read', query));
    },

    /** get returns one record; a record the caller may not read is reported as not found. */
    async get(appId: string, name: string, caller: Caller, id: string): Promise<EntityRecord> {
      const entity = requireReadable(name, caller);
      const row = await store.findOne(selection(appId, entity, caller, 'read'), id);
      if (!row) throw notFound(entity, id);
      return present(entity, caller, row);
    },
  };
}
