import type { Socket } from 'socket.io';
import type { RealtimeHub } from '../../realtime/realtime-hub';
import type { RealtimeLog } from '../../realtime/redis-adapter';
import type { SocketData } from '../../realtime/socket-server';
import type { SessionService } from '../auth/session-service';
import type { EntityEvent, EntityEvents } from '../entities/entity-events';
import { matchesRule, resolveRule, type Caller } from '../entities/entity-rules';
import { readVisibility, stripHidden } from '../entities/field-rules';
import type { Project } from '../entities/project-loader';

/** ENTITY_EVENT is the name raw entity events travel under between instances. */
export const ENTITY_EVENT = 'queen:entity-event';
/** MAX_PAYLOAD_BYTES is the largest record sent whole; a bigger one goes out slimmed with `_oversize`. */
export const MAX_PAYLOAD_BYTES = 64 * 1024;
/** MAX_FIELD_BYTES is the largest string field kept in a slimmed record (the SDK says "fields >10 KB are empty"). */
export const MAX_FIELD_BYTES = 10 * 1024;
/** REVALIDATE_MS is how long a socket's identity is trusted before it is checked again (disabled users, expiry). */
export const REVALIDATE_MS = 30_000;

/** RawEntityEvent is an EntityEvent with the time it was committed, as every instance receives it. */
export interface RawEntityEvent extends EntityEvent {
  timestamp: string;
}

/**
 * identifySocket resolves a handshake token to a Caller. An invalid, expired or disabled token is
 * anonymous: the SDK never retries a refused handshake, and anonymous is the least it may see.
 */
export async function identifySocket(
  sessions: Pick<SessionService, 'check'>,
  appId: string,
  token: string | null,
): Promise<Caller> {
  if (!token || !appId) return { kind: 'anonymous' };
  const result = await sessions.check(appId, `Bearer ${token}`);
  if (result.status === 'service') return { kind: 'service' };
  if (result.status !== 'user') return { kind: 'anonymous' };
  const { user } = result;
  return {
    kind: 'user',
    user: { id: user.id, email: user.email, role: user.role, full_name: user.full_name, custom: user.custom },
  };
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

/** visibleTo returns what caller may see of event's record for entity, or null when it may not read it. */
export function visibleTo(
  project: Project,
  event: Pick<EntityEvent, 'entity' | 'record'>,
  caller: Caller,
): Record<string, unknown> | null {
  const entity = project.entities.get(event.entity);
  if (!entity) return null;
  if (caller.kind === 'service') return event.record;
  if (!matchesRule(event.record, resolveRule(entity.rls.read, caller))) return null;
  return stripHidden(event.record, readVisibility(entity.properties, caller));
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
 * raw event and sends each of its own sockets in `entities:{appId}:{Entity}` only what that socket's
 * identity may read (the entity's read rule, then field-level read rules). Returns the unsubscribe.
 */
export function startEntityDelivery(deps: {
  project: Project;
  events: EntityEvents;
  hub: RealtimeHub;
  sessions: Pick<SessionService, 'check'>;
  log: RealtimeLog;
  now?: () => number;
}): () => void {
  const now = deps.now ?? Date.now;
  const pending = new Map<string, Promise<Caller>>();
  // Events are delivered one after the other, so a subscriber sees a record's writes in commit order.
  let queue: Promise<void> = Promise.resolve();

  function identityOf(socket: Socket): Promise<Caller> {
    const data = socket.data as SocketData;
    const cached = (data.identity as Caller | null) ?? { kind: 'anonymous' as const };
    if (!data.token || now() - data.checkedAt < REVALIDATE_MS) return Promise.resolve(cached);
    const inFlight = pending.get(socket.id);
    if (inFlight) return inFlight;
    const check = identifySocket(deps.sessions, data.appId, data.token)
      .catch(() => cached)
      .then((caller) => {
        data.identity = caller;
        data.checkedAt = now();
        pending.delete(socket.id);
        return caller;
      });
    pending.set(socket.id, check);
    return check;
  }

  async function deliver(event: RawEntityEvent): Promise<void> {
    const room = `entities:${event.appId}:${event.entity}`;
    for (const socket of deps.hub.localSockets(room)) {
      const caller = await identityOf(socket);
      const data = visibleTo(deps.project, event, caller);
      if (!data) continue;
      const payload = { type: event.type, data: slim(data), id: event.id, timestamp: event.timestamp };
      socket.emit('update_model', { room, data: JSON.stringify(payload) });
    }
  }

  deps.hub.handle(ENTITY_EVENT, (payload) => {
    if (!isRawEvent(payload)) return;
    queue = queue
      .then(() => deliver(payload))
      .catch((error: unknown) => deps.log.warn({ err: error }, 'realtime entity delivery failed'));
  });

  return deps.events.subscribe((event) => {
    // Synchronous and non-throwing: the write has committed and its HTTP answer must not wait or fail.
    try {
      deps.hub.dispatch(ENTITY_EVENT, { ...event, timestamp: new Date(now()).toISOString() });
    } catch (error) {
      deps.log.warn({ err: error }, 'realtime entity dispatch failed');
    }
  });
}
