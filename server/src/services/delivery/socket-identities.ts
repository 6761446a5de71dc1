// Who each socket is, as deliveries check it before sending: the handshake's identity, re-resolved from
// its token once it is older than REVALIDATE_MS or once its user was written (role, password, disabled),
// so a user who lost access stops receiving. Entity delivery and agent pushes share one instance.
import type { RoomMember } from '../../realtime/realtime-hub';
import type { Caller } from '../../rules/caller';
import type { SocketAccess } from '../identity/app-access';

/** REVALIDATE_MS is how long a socket's identity is trusted before it is checked again (disabled users, expiry). */
export const REVALIDATE_MS = 30_000;
/** MAX_TRACKED_USER_WRITES bounds the user-written stamps: past it, old ones go, then all (everyone re-checks). */
const MAX_TRACKED_USER_WRITES = 10_000;

export interface SocketIdentities {
  /** identityOf is the socket's caller now: its cached identity, or (stale) a fresh check of its token. */
  identityOf(socket: RoomMember): Caller | Promise<Caller>;
  /** noteUserWrites marks users written just now: their sockets re-check at their next delivery. */
  noteUserWrites(userIds: readonly string[]): void;
}

/** createSocketIdentities re-resolves tokens with identify (the handshake's resolver). */
export function createSocketIdentities(deps: {
  identify: (appId: string, token: string | null) => Promise<SocketAccess>;
  now?: () => number;
}): SocketIdentities {
  const now = deps.now ?? Date.now;
  const pending = new Map<string, Promise<Caller>>();
  // When a user was last written, so their sockets re-check their token at the next delivery instead of
  // up to REVALIDATE_MS later. Entries older than that are useless: pruned.
  const userWrittenAt = new Map<string, number>();
  let everyUserWrittenAt = 0;

  return {
    identityOf(socket) {
      const { data } = socket;
      const cached = (data.identity as Caller | null) ?? { kind: 'anonymous' as const };
      const written =
        cached.kind === 'user' ? Math.max(userWrittenAt.get(cached.user.id) ?? 0, everyUserWrittenAt) : 0;
      if (!data.token || (now() - data.checkedAt < REVALIDATE_MS && written < data.checkedAt)) return cached;
      const inFlight = pending.get(socket.id);
      if (inFlight) return inFlight;
      const check = deps
        .identify(data.appId, data.token)
        .then(({ caller, admitted }) => {
          data.identity = caller;
          data.admitted = admitted;
          data.checkedAt = now();
          return caller;
        })
        // Fail closed: a token that cannot be checked now (database busy) is not trusted for this delivery.
        .catch((): Caller => ({ kind: 'anonymous' }))
        .finally(() => pending.delete(socket.id));
      pending.set(socket.id, check);
      return check;
    },
    noteUserWrites(userIds) {
      if (userIds.length === 0) return;
      const at = now();
      for (const id of userIds) userWrittenAt.set(id, at);
      if (userWrittenAt.size > MAX_TRACKED_USER_WRITES) {
        for (const [id, writtenAt] of userWrittenAt) {
          if (at - writtenAt >= REVALIDATE_MS) userWrittenAt.delete(id);
        }
        // Still too many users written at once: forget them all, and have every user's socket re-check instead.
        if (userWrittenAt.size > MAX_TRACKED_USER_WRITES) {
          userWrittenAt.clear();
          everyUserWrittenAt = at;
        }
      }
    },
  };
}
