// A room's sockets grouped by identity, kept between events: an event then costs one rule check and one
// encoding per group, not a pass over every socket. The groups are worked out again when the room's
// membership changes (join, leave, disconnect), when an identity or admission changes or a user is written
// (the identities' epoch), and when an identity in them leaves its trust window unchecked.
import type { RealtimeHub, RoomMember } from '../../realtime/realtime-hub';
import type { Caller } from '../../rules/caller';
import { identityKey, REVALIDATE_MS, type SocketIdentities } from './socket-identities';

/** IdentityGroup is the sockets of one room that see the same: one caller, their ids. */
export interface IdentityGroup {
  caller: Caller;
  ids: string[];
}

interface KnownRoom {
  epoch: number;
  validUntil: number;
  groups: IdentityGroup[];
  /** members are the sockets the groups were worked out from (their data is live: checks update it). */
  members: readonly RoomMember[];
}

/** RoomGroups answers a room's identity groups: admitted sockets only, each socket in one group. */
export interface RoomGroups {
  groupsOf(room: string): Promise<IdentityGroup[]>;
}

/** createRoomGroups keeps the groups of the rooms deliveries ask about, on this instance. */
export function createRoomGroups(deps: {
  hub: Pick<RealtimeHub, 'localMembers' | 'onMembershipChange'>;
  identities: SocketIdentities;
  now?: () => number;
}): RoomGroups {
  const now = deps.now ?? Date.now;
  const known = new Map<string, KnownRoom>();
  // Rooms being worked out, and whether their membership changed meanwhile (then the result is not kept).
  const building = new Map<string, { changed: boolean }>();

  deps.hub.onMembershipChange((room) => {
    known.delete(room);
    const build = building.get(room);
    if (build) build.changed = true;
  });

  /** trustedUntil is when the first of sockets' identities leaves its trust window (0: one already has). */
  function trustedUntil(sockets: readonly RoomMember[]): number {
    let until = Number.POSITIVE_INFINITY;
    for (const socket of sockets) {
      if (!socket.data.token) continue;
      if (deps.identities.trusted(socket) === null) return 0;
      until = Math.min(until, socket.data.checkedAt + REVALIDATE_MS);
    }
    return until;
  }

  async function build(room: string, sockets: readonly RoomMember[]): Promise<KnownRoom> {
    // Last known identities; one shared re-check only for sockets past the window or whose user was written.
    const callers = await deps.identities.callersOf(sockets);
    const byKey = new Map<string, IdentityGroup>();
    // A socket that could not be checked goes as anonymous this once: nothing about it is kept (0).
    const validUntil = trustedUntil(sockets);
    sockets.forEach((socket, index) => {
      const caller = callers[index] ?? { kind: 'anonymous' };
      // A socket the app's visibility no longer admits (e.g. its user was unapproved) receives nothing.
      if (!socket.data.admitted) return;
      const key = identityKey(caller);
      const group = byKey.get(key);
      if (group) group.ids.push(socket.id);
      else byKey.set(key, { caller, ids: [socket.id] });
    });
    return { epoch: deps.identities.epoch(), validUntil, groups: [...byKey.values()], members: sockets };
  }

  return {
    async groupsOf(room) {
      const cached = known.get(room);
      if (cached && cached.epoch === deps.identities.epoch()) {
        if (now() < cached.validUntil) return cached.groups;
        // The background sweep re-checks identities before their window ends; a check that changed
        // nothing leaves the epoch alone. Then the groups still hold: only the window moves on, found by one
        // pass over the members, not by grouping them again (20–52 ms for 10,000 sockets in bench:realtime).
        const until = trustedUntil(cached.members);
        if (now() < until) {
          cached.validUntil = until;
          return cached.groups;
        }
      }
      known.delete(room);
      const sockets = deps.hub.localMembers(room);
      if (sockets.length === 0) return [];
      const epochBefore = deps.identities.epoch();
      const started = { changed: false };
      building.set(room, started);
      try {
        const fresh = await build(room, sockets);
        // Kept only if nothing moved while it was worked out (a join, or a check that changed an identity
        // before this build read it, which the epoch read before the build would show).
        if (!started.changed && fresh.epoch === epochBefore) known.set(room, fresh);
        return fresh.groups;
      } finally {
        if (building.get(room) === started) building.delete(room);
      }
    },
  };
}
