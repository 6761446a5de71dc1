import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { ForbiddenError, InvalidInputError, NotFoundError, UnauthorizedError } from '../../lib/errors';
import { randomId } from '../../lib/secure-random';
import type {
  EntityRecordRow,
  EntityRecordsStore,
  NewEntityRecord,
  Selection,
} from '../../store/entity-records-store';
import { parseAggregateSpec } from './entity-aggregate';
import { ImportRefusedError, RecordValidationError } from './entity-errors';
import {
  fieldOf,
  MAX_IMPORT_ERRORS,
  parseImportFile,
  ROWS_PER_TURN,
  type ImportProblem,
  type UploadedFile,
} from './entity-import';
import type { EntityEvents } from './entity-events';
import { isOpenRule, matchesRule, resolveRule, type Caller, type ResolvedRule } from './entity-rules';
import { deniedWrites, keepHidden, readView, readVisibility, stripHidden } from './field-rules';
import type { EntityDef, Project } from './project-loader';
import { prepareRecord } from './record-validator';
import { decodeCursor, encodeCursor, type CursorState } from './entity-cursor';
import { applyUpdate, changesBetween, newArrayWork, parseUpdate } from './update-operators';
import { isUserEntity, SIGN_IN_FOR_USERS } from './user-entity';

/** UserEntityWrites is how the built-in User entity is written (users table, its own rules). */
export interface UserEntityWrites {
  update(appId: string, caller: Caller, id: string, body: unknown): Promise<EntityRecord>;
  remove(appId: string, caller: Caller, id: string): Promise<{ success: true }>;
}

/** DEFAULT_LIST_LIMIT caps a list sent without `limit`. */
export const DEFAULT_LIST_LIMIT = 1000;
/** MAX_LIST_LIMIT is the largest `limit` honoured (the SDK's documented maximum); larger ones are lowered. */
export const MAX_LIST_LIMIT = 5000;
/** MAX_BULK_RECORDS is the most records one bulk create may hold; more is a 400. */
export const MAX_BULK_RECORDS = 1000;
/** MAX_BATCH_WRITE is the most records one updateMany, bulkUpdate or upsert writes (the SDK's documented 500). */
export const MAX_BATCH_WRITE = 500;

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

type EntityRecord = Record<string, unknown>;

const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

// A row the read cache hands out again is turned into a record once (dates formatted once): the record is
// shared like the row, and nothing downstream mutates either (stripHidden and project build new objects).
const recordsOfRows = new WeakMap<EntityRecordRow, EntityRecord>();
const presentedPages = new WeakMap<EntityRecordRow[], Map<string, EntityRecord[]>>();
function recordOf(row: EntityRecordRow): EntityRecord {
  let record = recordsOfRows.get(row);
  if (!record) recordsOfRows.set(row, (record = toRecord(row)));
  return record;
}

function toRecord(row: EntityRecordRow): EntityRecord {
  // Stamps are written last, so a stored field can never shadow them.
  // NB: Object.assign, not spread: spreading parsed JSON objects is ~30× slower in V8 (list pages).
  const record: EntityRecord = Object.assign({}, row.data);
  record.id = row.id;
  record.created_date = iso(row.created_date);
  record.updated_date = iso(row.updated_date);
  if (row.created_by !== null) record.created_by = row.created_by;
  if (row.created_by_id !== null) record.created_by_id = row.created_by_id;
  return record;
}

function owner(caller: Caller): { created_by: string | null; created_by_id: string | null } {
  if (caller.kind === 'user') return { created_by: caller.user.email, created_by_id: caller.user.id };
  if (caller.kind === 'service') return { created_by: null, created_by_id: 'service-role' };
  return { created_by: null, created_by_id: null };
}

const STAMP_FIELDS = new Set(['created_by', 'created_by_id']);

/** readsOnlyStamps says whether a resolved rule's conditions name the owner stamps only. */
function readsOnlyStamps(rule: ResolvedRule): boolean {
  if (typeof rule === 'boolean') return true;
  return Object.entries(rule).every(([key, value]) =>
    key === '$and' || key === '$or' || key === '$nor'
      ? Array.isArray(value) && value.every((item) => readsOnlyStamps(item as ResolvedRule))
      : STAMP_FIELDS.has(key),
  );
}

function project(record: EntityRecord, fields: string[] | undefined): EntityRecord {
  if (!fields || fields.length === 0) return record;
  const out: EntityRecord = { id: record.id };
  for (const field of fields) if (Object.hasOwn(record, field)) out[field] = record[field];
  return out;
}

/** createEntitiesService returns the entity operations with access rules, validation and events. */
export function createEntitiesService(deps: {
  project: Project;
  store: EntityRecordsStore;
  events: EntityEvents;
  users: UserEntityWrites;
}) {
  const byName = new Map(
    [...deps.project.entities.values()].map((entity) => [entity.name.toLowerCase(), entity]),
  );

  function requireEntity(name: string): EntityDef {
    const entity = byName.get(name.toLowerCase());
    if (!entity) throw new NotFoundError(`Entity "${name}" not found`);
    return entity;
  }

  /** requireReadable is requireEntity plus the User entity's refusal of anonymous callers. */
  function requireReadable(name: string, caller: Caller): EntityDef {
    const entity = requireEntity(name);
    if (isUserEntity(entity) && caller.kind === 'anonymous') throw new UnauthorizedError(SIGN_IN_FOR_USERS);
    return entity;
  }

  /** importRight is the entity an import writes to and the caller's create rule (403 without one). */
  function importRight(name: string, caller: Caller) {
    const entity = requireEntity(name);
    refuseUserCreate(entity, caller);
    const rule = resolveRule(entity.rls.create ?? entity.rls.write, caller);
    if (rule === false) throw new ForbiddenError('Permission denied: you may not create records');
    return { entity, rule };
  }

  /** refuseUserCreate stops every way of creating records when the entity is the built-in User. */
  function refuseUserCreate(entity: EntityDef, caller: Caller) {
    if (!isUserEntity(entity)) return;
    if (caller.kind === 'anonymous') throw new UnauthorizedError(SIGN_IN_FOR_USERS);
    throw new ForbiddenError(
      'Users cannot be created through the User entity: they join by sign-up (auth.register) or invitation (users.inviteUser)',
    );
  }

  /** refuseUserBatch stops the query-wide writes on the built-in User: users change one at a time. */
  function refuseUserBatch(entity: EntityDef, caller: Caller, op: string) {
    if (!isUserEntity(entity)) return;
    if (caller.kind === 'anonymous') throw new UnauthorizedError(SIGN_IN_FOR_USERS);
    throw new InvalidInputError(
      `${op} is not supported for the User entity: update (PUT /User/:id) or delete users one at a time`,
    );
  }

  function selection(
    appId: string,
    entity: EntityDef,
    caller: Caller,
    op: 'read' | 'update' | 'delete',
    query?: unknown,
  ): Selection {
    const rule = op === 'read' ? entity.rls.read : (entity.rls[op] ?? entity.rls.write);
    return {
      appId,
      entity: entity.name,
      rule: resolveRule(rule, caller),
      query,
      visibility: readVisibility(entity.properties, caller),
      ...(isUserEntity(entity) ? { source: 'users' as const } : {}),
    };
  }

  /** presenter returns what caller sees of each row: hidden fields stripped, then `fields` projected. */
  function presenter(entity: EntityDef, caller: Caller, fields?: string[]) {
    const visibility = readVisibility(entity.properties, caller);
    return (row: EntityRecordRow): EntityRecord => project(stripHidden(recordOf(row), visibility), fields);
  }

  const present = (entity: EntityDef, caller: Caller, row: EntityRecordRow) => presenter(entity, caller)(row);

  const notFound = (entity: EntityDef, id: string) =>
    new NotFoundError(`Entity ${entity.name} with ID ${id} not found`);

  /**
   * createRule is the caller's create rule, decided as far as it can be before the body is read: a rule
   * that admits no record, or one on the owner stamps alone that fails, is a 403 before any validation.
   * A rule on the record's own fields is decided on the validated record (prepareCreate).
   */
  function createRule(entity: EntityDef, caller: Caller): ResolvedRule {
    const rule = resolveRule(entity.rls.create ?? entity.rls.write, caller);
    if (rule === false || (readsOnlyStamps(rule) && !matchesRule(owner(caller), rule))) {
      throw new ForbiddenError('Permission denied');
    }
    return rule;
  }

  function prepareCreate(
    entity: EntityDef,
    caller: Caller,
    body: unknown,
    rule: ResolvedRule = createRule(entity, caller),
  ): NewEntityRecord {
    const prepared = prepareRecord(entity, body, 'create');
    if (!prepared.ok) throw new RecordValidationError(prepared.message);
    const stamps = owner(caller);
    const context = { ...prepared.data, ...stamps };
    if (!matchesRule(context, rule)) throw new ForbiddenError('Permission denied');
    const denied = deniedWrites({
      properties: entity.properties,
      changes: prepared.data,
      before: {},
      context,
      mode: 'create',
      caller,
    });
    if (denied.length)
      throw new ForbiddenError(`You're not allowed to set the following fields: ${denied.join(', ')}`);
    return { id: randomId(), data: prepared.data, ...stamps };
  }

  /**
   * mergeWrite is row's data with patch written over it field by field, keeping what the caller cannot
   * see (keepHidden: a client writing back a record as it read it never erases hidden keys).
   */
  function mergeWrite(row: EntityRecordRow, patch: EntityRecord, caller: Caller, entity: EntityDef) {
    const view = readView(toRecord(row), readVisibility(entity.properties, caller));
    const merged: EntityRecord = { ...row.data };
    for (const [key, value] of Object.entries(patch)) {
      merged[key] = keepHidden(row.data[key], value, [key], view);
    }
    return merged;
  }

  /** checkedUpdate validates merged data (required fields stay), checks field write rules and returns it. */
  function checkedUpdate(entity: EntityDef, caller: Caller, row: EntityRecordRow, after: EntityRecord) {
    const prepared = prepareRecord(entity, after, 'update');
    if (!prepared.ok) throw new RecordValidationError(`Record ${row.id}: ${prepared.message}`);
    for (const field of entity.required) {
      if (Object.hasOwn(row.data, field) && !Object.hasOwn(prepared.data, field)) {
        throw new RecordValidationError(`Record ${row.id}: Error in field ${field}: Field required`);
      }
    }
    const denied = deniedWrites({
      properties: entity.properties,
      changes: changesBetween(row.data, prepared.data),
      before: row.data,
      context: toRecord(row),
      mode: 'update',
      caller,
    });
    if (denied.length) {
      throw new ForbiddenError(`You're not allowed to modify the following fields: ${denied.join(', ')}`);
    }
    return prepared.data;
  }

  function requireSignedInWriter(entity: EntityDef, caller: Caller, op: 'update' | 'delete') {
    const stated = entity.rls[op] ?? entity.rls.write;
    if (caller.kind === 'anonymous' && !(stated !== undefined && isOpenRule(stated))) {
      throw new ForbiddenError(`Permission denied: sign in to ${op} records`);
    }
  }

  function emitAll(
    appId: string,
    entity: EntityDef,
    type: 'create' | 'update' | 'delete',
    rows: EntityRecordRow[],
  ) {
    for (const row of rows)
      deps.events.emit({ appId, entity: entity.name, type, id: row.id, record: toRecord(row) });
  }

  return {
    /** list returns one page of the records the caller may read, filtered, sorted and projected. */
    async list(appId: string, name: string, caller: Caller, options: ListOptions): Promise<EntityRecord[]> {
      const entity = requireReadable(name, caller);
      const limit = Math.min(options.limit || DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT);
      const rows = await deps.store.findMany(selection(appId, entity, caller, 'read', options.query), {
        sort: options.sort,
        limit,
        skip: options.skip ?? 0,
      });
      // A page the read cache answered again is presented once per projection: the same answer object
      // comes back, so the route's serialization of it is kept too.
      const projection = options.fields?.join(',') ?? '';
      let pages = presentedPages.get(rows);
      if (!pages) presentedPages.set(rows, (pages = new Map()));
      let records = pages.get(projection);
      if (!records) pages.set(projection, (records = rows.map(presenter(entity, caller, options.fields))));
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
        const page = await deps.store.distinctValues(
          chosen,
          walk.distinct,
          limit,
          resume ? walk.at.v : undefined,
        );
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
      const page = await deps.store.findPage(chosen, { field, descending, limit, after });
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
      return deps.store.count(selection(appId, entity, caller, 'read', query));
    },

    /** get returns one record; a record the caller may not read is reported as not found. */
    async get(appId: string, name: string, caller: Caller, id: string): Promise<EntityRecord> {
      const entity = requireReadable(name, caller);
      const row = await deps.store.findOne(selection(appId, entity, caller, 'read'), id);
      if (!row) throw notFound(entity, id);
      return present(entity, caller, row);
    },

    /** create validates, checks the create rules, stores and announces one record. */
    async create(appId: string, name: string, caller: Caller, body: unknown): Promise<EntityRecord> {
      const entity = requireEntity(name);
      refuseUserCreate(entity, caller);
      const rows = await deps.store.insertMany(appId, entity.name, [prepareCreate(entity, caller, body)]);
      emitAll(appId, entity, 'create', rows);
      return present(entity, caller, rows[0] as EntityRecordRow);
    },

    /** bulkCreate checks every record first, then stores them all in one statement. */
    async bulkCreate(appId: string, name: string, caller: Caller, bodies: unknown): Promise<EntityRecord[]> {
      const entity = requireEntity(name);
      refuseUserCreate(entity, caller);
      if (!Array.isArray(bodies)) throw new InvalidInputError('Request body must be an array');
      if (bodies.length > MAX_BULK_RECORDS) {
        throw new InvalidInputError(
          `A bulk create takes at most ${MAX_BULK_RECORDS} records (got ${bodies.length})`,
        );
      }
      const rule = createRule(entity, caller);
      const records = bodies.map((body, index) => {
        try {
          return prepareCreate(entity, caller, body, rule);
        } catch (error) {
          if (error instanceof RecordValidationError)
            throw new RecordValidationError(`Record ${index}: ${error.message}`);
          throw error;
        }
      });
      if (records.length === 0) return [];
      const rows = await deps.store.insertMany(appId, entity.name, records);
      emitAll(appId, entity, 'create', rows);
      return rows.map(presenter(entity, caller));
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
      const row = await deps.store.updateOne(chosen, id, (existing) => {
        const prepared = prepareRecord(entity, body, 'update');
        if (!prepared.ok) throw new RecordValidationError(prepared.message);
        const after = mergeWrite(existing, prepared.data, caller, entity);
        const changes = Object.fromEntries(Object.keys(prepared.data).map((key) => [key, after[key]]));
        const denied = deniedWrites({
          properties: entity.properties,
          changes,
          before: existing.data,
          context: toRecord(existing),
          mode: 'update',
          caller,
        });
        if (denied.length) {
          throw new ForbiddenError(`You're not allowed to modify the following fields: ${denied.join(', ')}`);
        }
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
      const row = await deps.store.deleteOne(selection(appId, entity, caller, 'delete'), id);
      if (!row) throw notFound(entity, id);
      emitAll(appId, entity, 'delete', [row]);
      return { success: true };
    },

    /**
     * removeMany deletes every record matching query that the delete rule lets the caller delete.
     * Anonymous callers need a delete (or write) rule that is stated and open; an absent rule is not enough.
     */
    async removeMany(appId: string, name: string, caller: Caller, query: unknown) {
      const entity = requireEntity(name);
      refuseUserBatch(entity, caller, 'deleteMany');
      if (typeof query !== 'object' || query === null || Array.isArray(query)) {
        throw new InvalidInputError('deleteMany needs a query object as the request body');
      }
      const stated = entity.rls.delete ?? entity.rls.write;
      if (caller.kind === 'anonymous' && !(stated !== undefined && isOpenRule(stated))) {
        throw new ForbiddenError('Permission denied: sign in to delete records');
      }
      const chosen = selection(appId, entity, caller, 'delete', query);
      if (chosen.rule === false) throw new ForbiddenError('Permission denied');
      const rows = await deps.store.deleteMany(chosen);
      emitAll(appId, entity, 'delete', rows);
      return { success: true as const, deleted: rows.length };
    },

    /**
     * updateMany applies Mongo update operators to at most MAX_BATCH_WRITE records matching query that the
     * update rule admits (both in SQL); one invalid or forbidden result rolls the whole batch back.
     */
    async updateMany(appId: string, name: string, caller: Caller, body: unknown) {
      const entity = requireEntity(name);
      refuseUserBatch(entity, caller, 'updateMany');
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        throw new InvalidInputError('updateMany needs a body {"query": {...}, "data": {...}}');
      }
      const { query, data } = body as { query?: unknown; data?: unknown };
      if (typeof query !== 'object' || query === null || Array.isArray(query)) {
        throw new InvalidInputError('updateMany needs "query" to be an object');
      }
      requireSignedInWriter(entity, caller, 'update');
      const chosen = selection(appId, entity, caller, 'update', query);
      if (chosen.rule === false) throw new ForbiddenError('Permission denied');
      const update = parseUpdate(data);
      const now = new Date();
      // Operators read current values as the caller may see them (field read rules), never more.
      const view = (row: EntityRecordRow) => readView(toRecord(row), chosen.visibility ?? new Map());
      const { rows, more } = await deps.store.updateSelected(chosen, { limit: MAX_BATCH_WRITE }, (found) => {
        // One budget for the array operators over every record, so the whole request's cost is bounded.
        const work = newArrayWork();
        return found.map((row) => ({
          id: row.id,
          data: checkedUpdate(entity, caller, row, applyUpdate(row.data, update, now, view(row), work)),
        }));
      });
      emitAll(appId, entity, 'update', rows);
      return { success: true as const, updated: rows.length, has_more: more };
    },

    /**
     * bulkUpdate merges each `{id, ...fields}` into its record. All or nothing: an id the caller may not
     * update (or that does not exist) refuses the whole call with 404, like update(); duplicates merge in order.
     */
    async bulkUpdate(appId: string, name: string, caller: Caller, body: unknown): Promise<EntityRecord[]> {
      const entity = requireEntity(name);
      refuseUserBatch(entity, caller, 'bulkUpdate');
      if (!Array.isArray(body))
        throw new InvalidInputError('Request body must be an array of {id, ...fields}');
      if (body.length > MAX_BATCH_WRITE) {
        throw new InvalidInputError(
          `A bulk update takes at most ${MAX_BATCH_WRITE} records (got ${body.length})`,
        );
      }
      const chosen = selection(appId, entity, caller, 'update');
      const patches = new Map<string, EntityRecord>();
      const order: string[] = [];
      body.forEach((item, index) => {
        if (typeof item !== 'object' || item === null || Array.isArray(item)) {
          throw new InvalidInputError(`Record ${index}: must be an object with an "id"`);
        }
        const { id, ...fields } = item as EntityRecord;
        if (typeof id !== 'string' || id.length === 0 || id.length > 128) {
          throw new InvalidInputError(`Record ${index}: "id" must be a non-empty string`);
        }
        // A caller who may update no record gets the 404 update() would give, before any validation.
        if (chosen.rule === false) throw notFound(entity, id);
        const prepared = prepareRecord(entity, fields, 'update');
        if (!prepared.ok) throw new RecordValidationError(`Record ${index}: ${prepared.message}`);
        if (!patches.has(id)) order.push(id);
        patches.set(id, { ...patches.get(id), ...prepared.data });
      });
      if (order.length === 0) return [];
      const { rows } = await deps.store.updateSelected(
        chosen,
        { limit: order.length, ids: order },
        (found) => {
          const byId = new Map(found.map((row) => [row.id, row]));
          return order.map((id) => {
            const row = byId.get(id);
            if (!row) throw notFound(entity, id);
            const merged = mergeWrite(row, patches.get(id) ?? {}, caller, entity);
            return { id, data: checkedUpdate(entity, caller, row, merged) };
          });
        },
      );
      emitAll(appId, entity, 'update', rows);
      return rows.map(presenter(entity, caller));
    },

    /**
     * upsert creates or updates records by the value of their top-level key field(s): a record whose key
     * matches an existing record the caller may read merges into it (update rule and field rules; a matched
     * record the caller may not update refuses the whole call with 403), any other is created (create
     * rules). Records the caller may not read never match, so upsert reveals nothing about them: a key
     * only they hold creates a new record (entity data has no unique keys). A key field hidden from the
     * caller by a field read rule is refused (403). Duplicates within one call: the last wins. All or nothing.
     */
    async upsert(appId: string, name: string, caller: Caller, body: unknown) {
      const entity = requireEntity(name);
      refuseUserCreate(entity, caller);
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        throw new InvalidInputError('upsert needs a body {"records": [...], "key": "field"}');
      }
      const { records, key } = body as { records?: unknown; key?: unknown };
      const keys = typeof key === 'string' ? [key] : key;
      if (
        !Array.isArray(keys) ||
        keys.length === 0 ||
        keys.length > 4 ||
        !keys.every((field) => typeof field === 'string' && Object.hasOwn(entity.properties, field))
      ) {
        throw new InvalidInputError(
          'upsert needs "key": a field of the entity, or an array of up to 4 fields',
        );
      }
      const keyFields = [...new Set(keys as string[])];
      const visibility = readVisibility(entity.properties, caller);
      const hidden = keyFields.filter((field) => visibility.has(field));
      if (hidden.length) {
        throw new ForbiddenError(
          `upsert cannot match on ${hidden.map((field) => `"${field}"`).join(', ')}: a field read rule hides it from you`,
        );
      }
      const readRule = selection(appId, entity, caller, 'read').rule;
      const updateRule = selection(appId, entity, caller, 'update').rule;
      const createAny = resolveRule(entity.rls.create ?? entity.rls.write, caller);
      if (createAny === false && (readRule === false || updateRule === false)) {
        throw new ForbiddenError('Permission denied');
      }
      if (!Array.isArray(records)) throw new InvalidInputError('upsert needs "records" to be an array');
      if (records.length > MAX_BATCH_WRITE) {
        throw new InvalidInputError(
          `An upsert takes at most ${MAX_BATCH_WRITE} records (got ${records.length})`,
        );
      }
      const byKey = new Map<string, { values: unknown[]; body: EntityRecord }>();
      records.forEach((record, index) => {
        if (typeof record !== 'object' || record === null || Array.isArray(record)) {
          throw new InvalidInputError(`Record ${index}: must be an object`);
        }
        const values = keyFields.map((field) => (record as EntityRecord)[field]);
        if (!values.every((value) => ['string', 'number', 'boolean'].includes(typeof value))) {
          throw new InvalidInputError(
            `Record ${index}: every key field (${keyFields.join(', ')}) needs a string, number or boolean value`,
          );
        }
        const id = JSON.stringify(values);
        byKey.delete(id);
        byKey.set(id, { values, body: record as EntityRecord });
      });
      if (byKey.size === 0) return { created: 0, updated: 0, records: [] as EntityRecord[] };
      const { inserted, updated } = await deps.store.upsertByKey(
        appId,
        entity.name,
        keyFields,
        [...byKey.values()].map((entry) => entry.values),
        readRule,
        updateRule,
        (existing) => {
          const matches = new Map<string, { row: EntityRecordRow; admitted: boolean }>();
          for (const found of existing) {
            const id = JSON.stringify(keyFields.map((field) => found.row.data[field]));
            if (!matches.has(id)) matches.set(id, found);
          }
          const inserts: NewEntityRecord[] = [];
          const updates: { id: string; data: EntityRecord }[] = [];
          for (const [id, { body: record }] of byKey) {
            const match = matches.get(id);
            if (!match) {
              inserts.push(prepareCreate(entity, caller, record));
              continue;
            }
            if (!match.admitted)
              throw new ForbiddenError('Permission denied: you may not update a matching record');
            const prepared = prepareRecord(entity, record, 'update');
            if (!prepared.ok) throw new RecordValidationError(prepared.message);
            const merged = mergeWrite(match.row, prepared.data, caller, entity);
            updates.push({ id: match.row.id, data: checkedUpdate(entity, caller, match.row, merged) });
          }
          return { inserts, updates };
        },
      );
      emitAll(appId, entity, 'create', inserted);
      emitAll(appId, entity, 'update', updated);
      return {
        created: inserted.length,
        updated: updated.length,
        records: [...inserted, ...updated].map(presenter(entity, caller)),
      };
    },

    /**
     * aggregate groups the records matching spec.query that the caller may read (read rule and query in
     * SQL, hidden fields read as missing) and returns `{rows, truncated}`; a bad spec is a 400.
     */
    async aggregate(appId: string, name: string, caller: Caller, spec: unknown) {
      const entity = requireReadable(name, caller);
      const { plan, query } = parseAggregateSpec(entity, spec);
      return deps.store.aggregate(selection(appId, entity, caller, 'read', query), plan);
    },

    /**
     * checkImport resolves the entity and the caller's create right, so the route can refuse (404/403)
     * before it reads an uploaded file.
     */
    checkImport(name: string, caller: Caller): void {
      importRight(name, caller);
    },

    /**
     * importRecords creates one record per row of a CSV or JSON file, all or nothing: every row is
     * validated against the schema, the create rule and the field write rules first; any problem refuses
     * the whole import with a per-row report (ImportRefusedError, nothing written). Then one transaction
     * inserts them all and one create event per record follows the commit.
     */
    async importRecords(appId: string, name: string, caller: Caller, file: UploadedFile) {
      const { entity, rule } = importRight(name, caller);
      const { records, problems } = await parseImportFile(entity, file);
      const stamps = owner(caller);
      const prepared: NewEntityRecord[] = [];
      const add = (problem: ImportProblem) => problems.push(problem);
      for (const [index, record] of records.entries()) {
        // Validation of a large file takes seconds: other requests get turns meanwhile.
        if (index % ROWS_PER_TURN === ROWS_PER_TURN - 1) await yieldToEventLoop();
        const row = index + 1;
        const checked = prepareRecord(entity, record, 'create');
        if (!checked.ok) {
          add({ row, ...fieldOf(checked.message) });
          continue;
        }
        const context = { ...checked.data, ...stamps };
        if (!matchesRule(context, rule)) {
          add({ row, field: null, message: 'Permission denied by the create rule' });
          continue;
        }
        const denied = deniedWrites({
          properties: entity.properties,
          changes: checked.data,
          before: {},
          context,
          mode: 'create',
          caller,
        });
        for (const path of denied) {
          add({ row, field: path.replace(/^data\./, ''), message: "You're not allowed to set this field" });
        }
        if (denied.length === 0) prepared.push({ id: randomId(), data: checked.data, ...stamps });
      }
      if (problems.length) {
        problems.sort((a, b) => a.row - b.row);
        throw new ImportRefusedError(problems.slice(0, MAX_IMPORT_ERRORS), problems.length);
      }
      const rows = prepared.length ? await deps.store.importMany(appId, entity.name, prepared) : [];
      emitAll(appId, entity, 'create', rows);
      return {
        status: 'success' as const,
        details: `Imported ${rows.length} ${rows.length === 1 ? 'record' : 'records'}`,
        output: rows.map(presenter(entity, caller)),
      };
    },

    /** seed loads each seed file the first time its entity is seeded for appId and returns the counts. */
    async seed(appId: string): Promise<Record<string, number>> {
      const counts: Record<string, number> = {};
      for (const set of deps.project.seeds) {
        const entity = requireEntity(set.entity);
        const records = set.records.map((record) => {
          const prepared = prepareRecord(entity, record, 'create');
          if (!prepared.ok) throw new InvalidInputError(`${set.file}: ${prepared.message}`);
          const email = typeof record.created_by === 'string' ? record.created_by : null;
          const id = typeof record.id === 'string' ? record.id : randomId();
          return { id, data: prepared.data, created_by: email, created_by_id: null };
        });
        counts[entity.name] = await deps.store.seedOnce(appId, entity.name, records);
      }
      return counts;
    },
  };
}

export type EntitiesService = ReturnType<typeof createEntitiesService>;
