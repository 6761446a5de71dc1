import type { RealtimeHub } from '../../realtime/realtime-hub';
import type { RealtimeLog } from '../../realtime/redis-adapter';
import type { RoomFamily } from '../../realtime/socket-server';
import type { SocketIdentities } from './socket-identities';
import { readersOf } from './readers-index';
import { createRoomGroups } from './room-groups';
import type { EntityEvent, EntityEvents } from '../entities/entity-events';
import type { Caller } from '../../rules/caller';
import { matchesRule } from '../../rules/evaluate-rule';
import { readScope, stripHidden } from '../../rules/read-scope';
import { resolveRule } from '../../rules/resolve-rule';
import type { Project } from '../../project/project-loader';
import { USER_ENTITY } from '../../project/user-entity';

/** ENTITY_EVENTS is the name batches of raw entity events travel under between instances. */
export const ENTITY_EVENTS = 'queen:entity-events';
/** MAX_BATCH is the most events one batch carries (an import of 100k records travels in many). */
export const MAX_BATCH = 500;
/** MAX_PAYLOAD_BYTES is the largest record sent whole; a bigger one goes out slimmed with `_oversize`. */
export const MAX_PAYLOAD_BYTES = 64 * 1024;
/** MAX_FIELD_BYTES is the largest string field kept in a slimmed record (the SDK says "fields >10 KB are empty"). */
export const MAX_FIELD_BYTES = 10 * 1024;

/** SLICE_MS is the longest delivery runs before letting HTTP requests and other sockets in. */
const SLICE_MS = 20;

/** RawEntityEvent is an EntityEvent with the time it was committed, as every instance receives it. */
export interface RawEntityEvent extends EntityEvent {
  timestamp: string;
}

/**
 * slim returns record as it may travel: whole when its JSON fits in MAX_PAYLOAD_BYTES; else with string
 * fields over MAX_FIELD_BYTES emptied and `_oversize: true`; else (still too big) a stub of its id and stamps.
 */
export function slim(record: Record<string, unknown>): Record<string, unknown> {
  if (Buffer.byteLength(JSON.stringify(record)) <= MAX_PAYLOAD_BYTES) return record;
  const emptied: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(record)) {
    const big = typeof value === 'string' && Buffer.byteLength(value) > MAX_FIELD_BYTES;
    emptied[field] = big ? '' : value;
  }
  emptied._oversize = true;
  if (Buffer.byteLength(JSON.stringify(emptied)) <= MAX_PAYLOAD_BYTES) return emptied;
  const stub: Record<string, unknown> = { _oversize: true };
  for (const key of ['id', 'created_date', 'updated_date', 'created_by', 'created_by_id']) {
    if (Object.hasOwn(record, key)) stub[key] = record[key];
  }
  return stub;
}

/**
 * entityRooms is the `entities:{appId}:{Entity}` room family: a socket joins the rooms of its own app's
 * entities that exist (isEntity), which the SDK's `entities.X.subscribe` asks for.
 */
export function entityRooms(isEntity: (entity: string) => boolean): RoomFamily {
  return {
    prefix: 'entities:',
    mayJoin({ appId }, room) {
      const [, roomApp, entity, ...rest] = room.split(':');
      return rest.length === 0 && roomApp === appId && Boolean(entity) && isEntity(entity ?? '');
    },
  };
}

/**
 * visibleTo returns what caller may see of event's record for entity, or null when it may not read it: the
 * rule that delivery follows (by readersOf, for many callers at once).
 */
export function visibleTo(
  project: Project,
  event: Pick<EntityEvent, 'entity' | 'record'>,
  caller: Caller,
): Record<string, unknown> | null {
  const entity = project.entities.get(event.entity);
  if (!entity) return null;
  if (caller.kind === 'service') return event.record;
  if (!matchesRule(event.record, resolveRule(entity.rls.read, caller))) return null;
  return stripHidden(event.record, readScope(entity.properties, caller));
}

function isRawEvent(value: unknown): value is RawEntityEvent {
  if (typeof value !== 'object' || value === null) return false;
  const event = value as Record<string, unknown>;
  return (
    typeof event.appId === 'string' &&
    typeof event.entity === 'string' &&
    typeof event.id === 'string' &&
    typeof event.timestamp === 'string' &&
    (event.type === 'create' || event.type === 'update' || event.type === 'delete') &&
    typeof event.record === 'object' &&
    event.record !== null
  );
}

/**
 * startEntityDelivery forwards committed entity writes to subscribed sockets: every instance receives the
 * raw events and sends each of its own sockets in `entities:{appId}:{Entity}` only what that socket's
 * identity may read (the entity's read rule, then field-level read rules). Returns the unsubscribe.
 */
export function startEntityDelivery(deps: {
  project: Project;
  events: EntityEvents;
  hub: RealtimeHub;
  /** identities are the sockets' identities, re-checked when stale or when their user was written. */
  identities: SocketIdentities;
  /**
   * admitsAnonymous says whether the app admits anonymous callers now (its visibility may have changed
   * since a signed-out socket connected; such sockets have no token to revalidate).
   */
  admitsAnonymous?: (appId: string) => Promise<boolean>;
  log: RealtimeLog;
  now?: () => number;
}): () => void {
  const now = deps.now ?? Date.now;
  // Sockets of one identity see the same thing: their payload is built and encoded once.
  const roomGroups = createRoomGroups({ hub: deps.hub, identities: deps.identities });
  // Batches are delivered one after the other, so a subscriber sees a record's writes in commit order.
  let queue: Promise<void> = Promise.resolve();
  let outgoing: RawEntityEvent[] = [];

  async function deliver(event: RawEntityEvent): Promise<void> {
    const room = `entities:${event.appId}:${event.entity}`;
    const groups = await roomGroups.groupsOf(room);
    if (groups.length === 0) return;
    const entity = deps.project.entities.get(event.entity);
    if (!entity) return;
    const anonymousAdmitted = deps.admitsAnonymous ? await deps.admitsAnonymous(event.appId) : true;
    // What visibleTo decides, group by group, without checking every group's rule (readers-index.ts).
    for (const { group, scope } of readersOf(groups, entity, event.record)) {
      if (group.caller.kind === 'anonymous' && !anonymousAdmitted) continue;
      const data = scope ? stripHidden(event.record, scope) : event.record;
      const payload = { type: event.type, data: slim(data), id: event.id, timestamp: event.timestamp };
      deps.hub.sendTo(group.ids, 'update_model', { room, data: JSON.stringify(payload) });
    }
  }

  /** deliverAll delivers a batch in order, giving the event loop back between slices of SLICE_MS. */
  async function deliverAll(batch: readonly RawEntityEvent[]): Promise<void> {
    let sliceStart = performance.now();
    for (const event of batch) {
      await deliver(event);
      if (performance.now() - sliceStart >= SLICE_MS) {
        await new Promise<void>((resume) => setImmediate(resume));
        sliceStart = performance.now();
      }
    }
  }

  deps.hub.handle(ENTITY_EVENTS, (payload) => {
    if (!Array.isArray(payload)) return;
    const batch = payload.filter(isRawEvent);
    deps.identities.noteUserWrites(
      batch
        .filter((event) => event.entity === USER_ENTITY && event.type !== 'create')
        .map((event) => event.id),
    );
    queue = queue
      .then(() => deliverAll(batch))
      .catch((error: unknown) => deps.log.warn({ err: error }, 'realtime entity delivery failed'));
  });

  function flush() {
    const batch = outgoing;
    outgoing = [];
    if (batch.length === 0) return;
    try {
      deps.hub.dispatch(ENTITY_EVENTS, batch);
    } catch (error) {
      deps.log.warn({ err: error }, 'realtime entity dispatch failed');
    }
  }

  return deps.events.subscribe((event) => {
    // Synchronous and non-throwing: the write has committed and its HTTP answer must not wait or fail.
    // The events of one write (a bulk create, an import) leave together, in batches of MAX_BATCH.
    outgoing.push({ ...event, timestamp: new Date(now()).toISOString() });
    if (outgoing.length === 1) queueMicrotask(flush);
    if (outgoing.length >= MAX_BATCH) flush();
  });
}
