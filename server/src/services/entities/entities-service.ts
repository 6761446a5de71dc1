import { randomBytes } from 'node:crypto';
import { ForbiddenError, InvalidInputError, NotFoundError } from '../../lib/errors';
import type {
  EntityRecordRow,
  EntityRecordsStore,
  NewEntityRecord,
  Selection,
} from '../../store/entity-records-store';
import { RecordValidationError } from './entity-errors';
import type { EntityEvents } from './entity-events';
import { isOpenRule, matchesRule, resolveRule, type Caller } from './entity-rules';
import { deniedWrites, readVisibility, stripHidden } from './field-rules';
import type { EntityDef, Project } from './project-loader';
import { prepareRecord } from './record-validator';

/** DEFAULT_LIST_LIMIT caps a list sent without `limit`. */
export const DEFAULT_LIST_LIMIT = 1000;
/** MAX_LIST_LIMIT is the largest `limit` honoured (the SDK's documented maximum); larger ones are lowered. */
export const MAX_LIST_LIMIT = 5000;
/** MAX_BULK_RECORDS is the most records one bulk create may hold; more is a 400. */
export const MAX_BULK_RECORDS = 1000;

/** ListOptions is a list or filter request after parsing. */
export interface ListOptions {
  query?: unknown;
  sort?: string | undefined;
  limit?: number | undefined;
  skip?: number | undefined;
  fields?: string[] | undefined;
}

type EntityRecord = Record<string, unknown>;

const newId = () => randomBytes(12).toString('hex');
const iso = (value: Date | string) => new Date(value).toISOString();

function toRecord(row: EntityRecordRow): EntityRecord {
  // Stamps are written last, so a stored field can never shadow them.
  return {
    ...row.data,
    id: row.id,
    created_date: iso(row.created_date),
    updated_date: iso(row.updated_date),
    ...(row.created_by === null ? {} : { created_by: row.created_by }),
    ...(row.created_by_id === null ? {} : { created_by_id: row.created_by_id }),
  };
}

function owner(caller: Caller): { created_by: string | null; created_by_id: string | null } {
  if (caller.kind === 'user') return { created_by: caller.user.email, created_by_id: caller.user.id };
  if (caller.kind === 'service') return { created_by: null, created_by_id: 'service-role' };
  return { created_by: null, created_by_id: null };
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
}) {
  const byName = new Map(
    [...deps.project.entities.values()].map((entity) => [entity.name.toLowerCase(), entity]),
  );

  function requireEntity(name: string): EntityDef {
    const entity = byName.get(name.toLowerCase());
    if (!entity) throw new NotFoundError(`Entity "${name}" not found`);
    return entity;
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
    };
  }

  function present(entity: EntityDef, caller: Caller, row: EntityRecordRow, fields?: string[]): EntityRecord {
    return project(stripHidden(toRecord(row), readVisibility(entity.properties, caller)), fields);
  }

  const notFound = (entity: EntityDef, id: string) =>
    new NotFoundError(`Entity ${entity.name} with ID ${id} not found`);

  function prepareCreate(entity: EntityDef, caller: Caller, body: unknown): NewEntityRecord {
    const prepared = prepareRecord(entity, body, 'create');
    if (!prepared.ok) throw new RecordValidationError(prepared.message);
    const stamps = owner(caller);
    const context = { ...prepared.data, ...stamps };
    const rule = resolveRule(entity.rls.create ?? entity.rls.write, caller);
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
    return { id: newId(), data: prepared.data, ...stamps };
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
      const entity = requireEntity(name);
      const limit = Math.min(options.limit || DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT);
      const rows = await deps.store.findMany(selection(appId, entity, caller, 'read', options.query), {
        sort: options.sort,
        limit,
        skip: options.skip ?? 0,
      });
      return rows.map((row) => present(entity, caller, row, options.fields));
    },

    /** count returns how many records matching query the caller may read. */
    async count(appId: string, name: string, caller: Caller, query?: unknown): Promise<number> {
      const entity = requireEntity(name);
      return deps.store.count(selection(appId, entity, caller, 'read', query));
    },

    /** get returns one record; a record the caller may not read is reported as not found. */
    async get(appId: string, name: string, caller: Caller, id: string): Promise<EntityRecord> {
      const entity = requireEntity(name);
      const row = await deps.store.findOne(selection(appId, entity, caller, 'read'), id);
      if (!row) throw notFound(entity, id);
      return present(entity, caller, row);
    },

    /** create validates, checks the create rules, stores and announces one record. */
    async create(appId: string, name: string, caller: Caller, body: unknown): Promise<EntityRecord> {
      const entity = requireEntity(name);
      const rows = await deps.store.insertMany(appId, entity.name, [prepareCreate(entity, caller, body)]);
      emitAll(appId, entity, 'create', rows);
      return present(entity, caller, rows[0] as EntityRecordRow);
    },

    /** bulkCreate checks every record first, then stores them all in one statement. */
    async bulkCreate(appId: string, name: string, caller: Caller, bodies: unknown): Promise<EntityRecord[]> {
      const entity = requireEntity(name);
      if (!Array.isArray(bodies)) throw new InvalidInputError('Request body must be an array');
      if (bodies.length > MAX_BULK_RECORDS) {
        throw new InvalidInputError(
          `A bulk create takes at most ${MAX_BULK_RECORDS} records (got ${bodies.length})`,
        );
      }
      const records = bodies.map((body, index) => {
        try {
          return prepareCreate(entity, caller, body);
        } catch (error) {
          if (error instanceof RecordValidationError)
            throw new RecordValidationError(`Record ${index}: ${error.message}`);
          throw error;
        }
      });
      if (records.length === 0) return [];
      const rows = await deps.store.insertMany(appId, entity.name, records);
      emitAll(appId, entity, 'create', rows);
      return rows.map((row) => present(entity, caller, row));
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
      const prepared = prepareRecord(entity, body, 'update');
      if (!prepared.ok) throw new RecordValidationError(prepared.message);
      const row = await deps.store.updateOne(selection(appId, entity, caller, 'update'), id, (existing) => {
        const denied = deniedWrites({
          properties: entity.properties,
          changes: prepared.data,
          before: existing.data,
          context: toRecord(existing),
          mode: 'update',
          caller,
        });
        if (denied.length) {
          throw new ForbiddenError(`You're not allowed to modify the following fields: ${denied.join(', ')}`);
        }
        return { ...existing.data, ...prepared.data };
      });
      if (!row) throw notFound(entity, id);
      emitAll(appId, entity, 'update', [row]);
      return present(entity, caller, row);
    },

    /** remove deletes a record the caller may delete (else not found) and announces it. */
    async remove(appId: string, name: string, caller: Caller, id: string): Promise<{ success: true }> {
      const entity = requireEntity(name);
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

    /** seed loads each seed file the first time its entity is seeded for appId and returns the counts. */
    async seed(appId: string): Promise<Record<string, number>> {
      const counts: Record<string, number> = {};
      for (const set of deps.project.seeds) {
        const entity = requireEntity(set.entity);
        const records = set.records.map((record) => {
          const prepared = prepareRecord(entity, record, 'create');
          if (!prepared.ok) throw new InvalidInputError(`${set.file}: ${prepared.message}`);
          const email = typeof record.created_by === 'string' ? record.created_by : null;
          const id = typeof record.id === 'string' ? record.id : newId();
          return { id, data: prepared.data, created_by: email, created_by_id: null };
        });
        counts[entity.name] = await deps.store.seedOnce(appId, entity.name, records);
      }
      return counts;
    },
  };
}

export type EntitiesService = ReturnType<typeof createEntitiesService>;
