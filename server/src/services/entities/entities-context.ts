import { ForbiddenError, InvalidInputError, NotFoundError, UnauthorizedError } from '../../lib/errors';
import type { Caller } from '../../rules/caller';
import { isOpenRule, resolveRule } from '../../rules/resolve-rule';
import { readScope, stripHidden } from '../../rules/read-scope';
import type { EntityRecordRow, EntityRecordsStore, Selection } from '../../store/entity-records-store';
import type { EntityDef, Project } from '../../project/entity-def';
import type { EntityEvents } from './entity-events';
import { projectFields, recordOf, toRecord, type EntityRecord } from './record-presenter';
import { isUserEntity, SIGN_IN_FOR_USERS } from '../../project/user-entity';

// What every entity action shares: the project's entities, the store, the events, and the caller rules
// that come before any action (which entity, may the caller touch it, which rows the rule selects).

/** UserEntityWrites is how the built-in User entity is written (users table, its own rules). */
export interface UserEntityWrites {
  update(appId: string, caller: Caller, id: string, body: unknown): Promise<EntityRecord>;
  remove(appId: string, caller: Caller, id: string): Promise<{ success: true }>;
}

/** EntitiesServiceDeps is what the entities service is built from. */
export interface EntitiesServiceDeps {
  project: Project;
  store: EntityRecordsStore;
  events: EntityEvents;
  users: UserEntityWrites;
  /**
   * rowsShared says the store hands the same row objects out again (the read cache): each is then turned
   * into a record once and kept. Without it a row is read once, and keeping it would be wasted work.
   */
  rowsShared?: boolean;
}

/** createEntitiesContext returns the helpers the entity actions share, built once per service. */
export function createEntitiesContext(deps: EntitiesServiceDeps) {
  const byName = new Map(
    [...deps.project.entities.values()].map((entity) => [entity.name.toLowerCase(), entity]),
  );

  const asRecord = deps.rowsShared ? recordOf : toRecord;

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

  /**
   * requireSignedInWriter refuses an anonymous caller a query-wide write unless the update (or delete)
   * rule is stated and open; an absent rule is not enough.
   */
  function requireSignedInWriter(entity: EntityDef, caller: Caller, op: 'update' | 'delete') {
    const stated = entity.rls[op] ?? entity.rls.write;
    if (caller.kind === 'anonymous' && !(stated !== undefined && isOpenRule(stated))) {
      throw new ForbiddenError(`Permission denied: sign in to ${op} records`);
    }
  }

  /** selection is which rows of entity an op by caller may touch, narrowed by query. */
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
      visibility: readScope(entity.properties, caller),
      ...(isUserEntity(entity) ? { source: 'users' as const } : {}),
    };
  }

  /** presenter returns what caller sees of each row: hidden fields stripped, then `fields` projected. */
  function presenter(entity: EntityDef, caller: Caller, fields?: string[]) {
    const scope = readScope(entity.properties, caller);
    return (row: EntityRecordRow): EntityRecord => projectFields(stripHidden(asRecord(row), scope), fields);
  }

  const present = (entity: EntityDef, caller: Caller, row: EntityRecordRow) => presenter(entity, caller)(row);

  const notFound = (entity: EntityDef, id: string) =>
    new NotFoundError(`Entity ${entity.name} with ID ${id} not found`);

  /** emitAll announces one event per row, after the write committed. */
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
    deps,
    store: deps.store,
    requireEntity,
    requireReadable,
    refuseUserCreate,
    refuseUserBatch,
    requireSignedInWriter,
    selection,
    presenter,
    present,
    notFound,
    emitAll,
  };
}

/** EntitiesContext is what each group of entity actions is built on. */
export type EntitiesContext = ReturnType<typeof createEntitiesContext>;
