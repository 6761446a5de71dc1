// Who each socket is, as deliveries check it before sending: the handshake's identity, re-checked in the
// background, many users per query, before it is REVALIDATE_MS old, and at once when its user is written
// (role, password, disabled), so a user who lost access stops receiving. A delivery never waits on one
// socket's check: it uses the last known identity, and waits for one shared batch only for sockets past
// the window or whose user was written since (fail closed: a socket that cannot be checked is anonymous).
// Entity delivery and agent pushes share one instance.
import type { RoomMember } from '../../realtime/realtime-hub';
import type { Caller } from '../../rules/caller';
import type { SocketAccess } from '../identity/app-access';

/** REVALIDATE_MS is how long a socket's identity is trusted without a check (disabled users, expiry). */
export const REVALIDATE_MS = 30_000;
/** SWEEP_MS is how often the background sweep looks for identities to re-check. */
export const SWEEP_MS = 5_000;
/** REFRESH_AFTER_MS is the age at which the sweep re-checks an identity: early enough to beat the window. */
const REFRESH_AFTER_MS = REVALIDATE_MS - 3 * SWEEP_MS;
/** TOKENS_PER_CHECK is how many distinct tokens one check carries (their users are read in one query). */
const TOKENS_PER_CHECK = 500;
/**
 * SOCKETS_PER_CHECK is where a check closes before the next token's sockets (many tabs may share a token).
 * A token's sockets are never split: one token with more sockets than this is a check of its own.
 */
const SOCKETS_PER_CHECK = 5_000;
/** MAX_TRACKED_USER_WRITES bounds the user-written stamps: past it, old ones go, then all (everyone re-checks). */
const MAX_TRACKED_USER_WRITES = 10_000;

const ANONYMOUS: Caller = { kind: 'anonymous' };

// Sockets on one token share one caller object per check: its key is worked out once, not per socket.
const identityKeys = new WeakMap<object, string>();

/** identityKey is what tells identities apart (sockets with equal keys see the same), cached per object. */
export function identityKey(caller: Caller): string {
  let key = identityKeys.get(caller);
  if (key === undefined) identityKeys.set(caller, (key = JSON.stringify(caller)));
  return key;
}

/**
 * chunksByToken splits sockets into checks of at most TOKENS_PER_CHECK distinct tokens (a user's tabs share
 * one: 10,000 sockets of 500 users are one query, not 20), closing a check before the token that would take
 * it past SOCKETS_PER_CHECK sockets.
 */
function chunksByToken(sockets: readonly RoomMember[]): RoomMember[][] {
  const byToken = new Map<string, RoomMember[]>();
  for (const socket of sockets) {
    const token = socket.data.token ?? '';
    const same = byToken.get(token);
    if (same) same.push(socket);
    else byToken.set(token, [socket]);
  }
  const chunks: RoomMember[][] = [];
  let chunk: RoomMember[] = [];
  let tokens = 0;
  for (const same of byToken.values()) {
    if (chunk.length > 0 && (tokens === TOKENS_PER_CHECK || chunk.length + same.length > SOCKETS_PER_CHECK)) {
      chunks.push(chunk);
      chunk = [];
      tokens = 0;
    }
    chunk.push(...same);
    tokens += 1;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

export interface SocketIdentities {
  /** trusted is the socket's identity when it needs no check now, else null. */
  trusted(socket: RoomMember): Caller | null;
  /**
   * callersOf is each socket's caller: trusted ones at once, the others after one shared re-check; a socket
   * whose check fails is anonymous for this delivery.
   */
  callersOf(sockets: readonly RoomMember[]): Promise<Caller[]>;
  /**
   * revalidate re-checks sockets' tokens now, in batches, and resolves with the ids of those whose check
   * failed; it never rejects (a failed check leaves them untrusted).
   */
  revalidate(sockets: readonly RoomMember[]): Promise<Set<string>>;
  /** noteUserWrites marks users written just now: their sockets are re-checked at once. */
  noteUserWrites(userIds: readonly string[]): void;
  /**
   * epoch moves on whenever a check changes a socket's identity or admission, and at every user write:
   * what was worked out from identities before (a room's groups) holds while it stays the same.
   */
  epoch(): number;
  /** stop ends the background sweep. */
  stop(): void;
}

interface PendingCheck {
  /** run resolves with whether the check succeeded. */
  run: Promise<boolean>;
  /** startedAt is the write sequence when the check started (see writeSequence). */
  startedAt: number;
}

/**
 * createSocketIdentities re-resolves tokens with identifyMany (the handshake's resolver, for many tokens
 * of one app); with sockets (this instance's connected sockets) it also sweeps them in the background.
 */
export function createSocketIdentities(deps: {
  identifyMany: (appId: string, tokens: readonly string[]) => Promise<Map<string, SocketAccess>>;
  sockets?: () => readonly RoomMember[];
  log?: { warn(details: object, message: string): void };
  now?: () => number;
}): SocketIdentities {
  const now = deps.now ?? Date.now;
  const pending = new Map<string, PendingCheck>();
  // Writes and checks are ordered by a counter, not the clock: a write and a check in one millisecond
  // must still say which came first. A socket's check counts for its user's writes noted before it began.
  let writeSequence = 0;
  // When a user was last written (sequence, and time for pruning), so their sockets re-check now instead of
  // up to REVALIDATE_MS later. Entries older than that are useless: pruned.
  const userWrites = new Map<string, { sequence: number; at: number }>();
  let everyUserWritten = 0;
  let epoch = 0;

  /** writtenAt is the sequence of the last write of socket's user (0: never, or not a user). */
  function writtenAt(socket: RoomMember): number {
    const identity = socket.data.identity as Caller | null;
    if (identity?.kind !== 'user') return 0;
    return Math.max(userWrites.get(identity.user.id)?.sequence ?? 0, everyUserWritten);
  }

  /** stale says whether socket's identity is past the window or older than its user's last write. */
  function stale(socket: RoomMember, olderThanMs: number): boolean {
    const { data } = socket;
    return now() - data.checkedAt >= olderThanMs || writtenAt(socket) > (data.checkedSequence ?? 0);
  }

  function trusted(socket: RoomMember): Caller | null {
    const cached = (socket.data.identity as Caller | null) ?? ANONYMOUS;
    if (!socket.data.token) return cached;
    return stale(socket, REVALIDATE_MS) ? null : cached;
  }

  async function check(appId: string, sockets: readonly RoomMember[], startedAt: number): Promise<boolean> {
    const checkedAt = now();
    try {
      const tokens = new Set(sockets.map((socket) => socket.data.token ?? ''));
      const answers = await deps.identifyMany(appId, [...tokens]);
      for (const socket of sockets) {
        // A token the resolver did not answer for is not trusted: anonymous, and admitted to nothing.
        const answer = answers.get(socket.data.token ?? '') ?? { caller: ANONYMOUS, admitted: false };
        const previous = socket.data.identity as Caller | null;
        const same =
          answer.admitted === socket.data.admitted &&
          previous !== null &&
          identityKey(answer.caller) === identityKey(previous);
        if (!same) epoch += 1;
        socket.data.identity = answer.caller;
        socket.data.admitted = answer.admitted;
        // As of the check's start: a user written while it ran is checked again.
        socket.data.checkedAt = checkedAt;
        socket.data.checkedSequence = startedAt;
      }
      return true;
    } catch (error) {
      // Fail closed: the sockets stay untrusted, so deliveries send them what anonymous callers may read.
      deps.log?.warn({ err: error, sockets: sockets.length }, 'realtime identity re-check failed');
      return false;
    }
  }

  async function revalidate(sockets: readonly RoomMember[]): Promise<Set<string>> {
    const waits: { run: Promise<boolean>; ids: string[] }[] = [];
    const byApp = new Map<string, RoomMember[]>();
    for (const socket of sockets) {
      if (!socket.data.token) continue;
      const inFlight = pending.get(socket.id);
      // A check that started after the user's last write answers for now too.
      if (inFlight && inFlight.startedAt >= writtenAt(socket)) {
        waits.push({ run: inFlight.run, ids: [socket.id] });
        continue;
      }
      const group = byApp.get(socket.data.appId) ?? [];
      group.push(socket);
      byApp.set(socket.data.appId, group);
    }
    const startedAt = writeSequence;
    for (const [appId, group] of byApp) {
      for (const chunk of chunksByToken(group)) {
        const run: Promise<boolean> = check(appId, chunk, startedAt).finally(() => {
          for (const socket of chunk) if (pending.get(socket.id)?.run === run) pending.delete(socket.id);
        });
        for (const socket of chunk) pending.set(socket.id, { run, startedAt });
        waits.push({ run, ids: chunk.map((socket) => socket.id) });
      }
    }
    const failed = new Set<string>();
    for (const { run, ids } of waits) if (!(await run)) for (const id of ids) failed.add(id);
    return failed;
  }

  /** sweep re-checks, in the background, identities near the window's end or whose user was written. */
  function sweep(): void {
    if (!deps.sockets) return;
    // revalidate leaves out sockets whose check is already running (and started after their user's write).
    const due = deps.sockets().filter((socket) => socket.data.token && stale(socket, REFRESH_AFTER_MS));
    if (due.length > 0) void revalidate(due);
  }

  const timer = deps.sockets ? setInterval(sweep, SWEEP_MS) : null;
  timer?.unref();

  return {
    trusted,
    async callersOf(sockets) {
      // As trusted when the delivery began: a user written while it waits has its own event re-check them.
      const callers = sockets.map((socket) => trusted(socket));
      const unchecked = sockets.filter((_, index) => callers[index] === null);
      if (unchecked.length === 0) return callers as Caller[];
      const failed = await revalidate(unchecked);
      // A socket checked for this delivery goes as its check found it, even if its user was written again
      // meanwhile: an event is never lost to a later write.
      return sockets.map(
        (socket, index) =>
          callers[index] ??
          (failed.has(socket.id) ? ANONYMOUS : ((socket.data.identity as Caller | null) ?? ANONYMOUS)),
      );
    },
    revalidate,
    noteUserWrites(userIds) {
      if (userIds.length === 0) return;
      const at = now();
      writeSequence += 1;
      epoch += 1;
      for (const id of userIds) userWrites.set(id, { sequence: writeSequence, at });
      if (userWrites.size > MAX_TRACKED_USER_WRITES) {
        for (const [id, write] of userWrites) {
          if (at - write.at >= REVALIDATE_MS) userWrites.delete(id);
        }
        // Still too many users written at once: forget them all, and have every user's socket re-check instead.
        if (userWrites.size > MAX_TRACKED_USER_WRITES) {
          userWrites.clear();
          everyUserWritten = writeSequence;
        }
      }
      // At once, in the background: the next delivery to them then usually finds them checked.
      setImmediate(sweep);
    },
    epoch: () => epoch,
    stop() {
      if (timer) clearInterval(timer);
    },
  };
}
