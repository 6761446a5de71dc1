// Realtime for conversations: the `/agent-conversations/{id}` room family (a socket joins only a
// conversation its identity may read) and the pushes of a turn's steps. A push travels to every instance
// (hub.dispatch: through Redis with REDIS_URL), and each instance sends it to its own sockets in the room
// whose identity may still read the conversation now (re-checked as entity delivery re-checks). Pushes of
// one instance leave in order.
import type { RealtimeHub } from '../../realtime/realtime-hub';
import type { RealtimeLog } from '../../realtime/redis-adapter';
import type { RoomFamily } from '../../realtime/socket-server';
import type { Caller } from '../../rules/caller';
import type { SocketIdentities } from '../delivery/socket-identities';
import { mayRead } from './conversation-view';

/** ROOM_PREFIX starts every conversation's room. */
export const ROOM_PREFIX = '/agent-conversations/';
/** AGENT_PUSHES is the name pushes travel under between instances. */
export const AGENT_PUSHES = 'queen:agent-pushes';

/** AgentPush is one step of a turn on its way to the conversation's sockets. */
export interface AgentPush {
  appId: string;
  conversationId: string;
  ownerId: string | null;
  /** data is the `update_model` data: the payload's JSON, encoded once for every reader. */
  data: string;
}

const roomOf = (conversationId: string) => `${ROOM_PREFIX}${conversationId}`;

/**
 * agentConversationRooms admits a socket to `/agent-conversations/{id}` when the conversation is its
 * app's and its identity may read it (ownerOf answers undefined for a conversation that does not exist).
 */
export function agentConversationRooms(
  ownerOf: (appId: string, id: string) => Promise<string | null | undefined>,
): RoomFamily {
  return {
    prefix: ROOM_PREFIX,
    async mayJoin({ appId, identity }, room) {
      const id = room.slice(ROOM_PREFIX.length);
      if (id.length === 0 || id.length > 100 || id.includes('/')) return false;
      const caller = (identity as Caller | null) ?? { kind: 'anonymous' };
      if (caller.kind === 'anonymous') return false;
      const owner = await ownerOf(appId, id).catch(() => undefined);
      return owner !== undefined && mayRead(owner, caller);
    },
  };
}

function isPush(value: unknown): value is AgentPush {
  if (typeof value !== 'object' || value === null) return false;
  const push = value as Record<string, unknown>;
  return (
    typeof push.appId === 'string' &&
    typeof push.conversationId === 'string' &&
    (typeof push.ownerId === 'string' || push.ownerId === null) &&
    typeof push.data === 'string'
  );
}

/** startAgentPushes handles pushes from every instance and returns publish, which sends one to all of them. */
export function startAgentPushes(deps: {
  hub: RealtimeHub;
  identities: SocketIdentities;
  log: RealtimeLog;
  /** onPush also sees every push this instance handles (the console's watchers). */
  onPush?: (push: AgentPush) => void;
}): (push: AgentPush) => void {
  let queue: Promise<void> = Promise.resolve();

  async function deliver(push: AgentPush): Promise<void> {
    const room = roomOf(push.conversationId);
    const readers: string[] = [];
    const sockets = deps.hub.localMembers(room).filter((socket) => socket.data.appId === push.appId);
    const callers = await deps.identities.callersOf(sockets);
    sockets.forEach((socket, index) => {
      const caller = callers[index];
      if (caller && socket.data.admitted && mayRead(push.ownerId, caller)) readers.push(socket.id);
    });
    deps.hub.sendTo(readers, 'update_model', { room, data: push.data });
  }

  deps.hub.handle(AGENT_PUSHES, (payload) => {
    if (!isPush(payload)) return;
    deps.onPush?.(payload);
    // One after the other: a reader sees a message's content grow, never shrink.
    queue = queue
      .then(() => deliver(payload))
      .catch((error: unknown) => deps.log.warn({ err: error }, 'agent push delivery failed'));
  });
  return (push) => deps.hub.dispatch(AGENT_PUSHES, push);
}
