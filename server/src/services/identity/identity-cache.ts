import type { RealtimeHub } from '../../realtime/realtime-hub';
import type { UserRow, UsersStore } from '../../store/users-store';

// Every authenticated request needs its user's row (token version, role, disabled, approval): kept in
// memory briefly, so a burst of requests reads it once. Security stays true by three bounds: a write to a
// user through this process forgets it at once (before the write's promise settles); with REDIS_URL the
// write is dispatched to every other instance, which forgets it too (about a millisecond later); and no
// row is kept longer than IDENTITY_TTL_MS, so a lost message, a Redis outage or a write by another process
// (the CLI on PostgreSQL) reaches every instance within that time.

/** IDENTITY_TTL_MS is the longest a user row is kept: a disable, role or password change is seen by then. */
export const IDENTITY_TTL_MS = 500;
/** USER_CHANGED is the name under which instances tell each other a user row changed. */
export const USER_CHANGED = 'queen:user-changed';
/** MAX_IDENTITIES bounds memory; the least recently read rows go first. */
const MAX_IDENTITIES = 10_000;

/**
 * IdentityCache keeps user rows for a moment, forgetting each as soon as it is written.
 * NB: a kept row is shared by every request that reads it: callers must not mutate it.
 */
export interface IdentityCache {
  /** find returns the user (appId, id), kept if read less than ttlMs ago and not written since, else load's. */
  find(appId: string, id: string, load: () => Promise<UserRow | null>): Promise<UserRow | null>;
  /** changed forgets the user here and, through the hub, on every other instance. */
  changed(appId: string, id: string): void;
}

/** IdentityCacheOptions bound the cache and name who hears about changes. */
export interface IdentityCacheOptions {
  ttlMs?: number;
  /** hub carries changes to and from other instances (the realtime hub, through Redis when configured). */
  hub?: Pick<RealtimeHub, 'dispatch' | 'handle'> | undefined;
  now?: () => number;
}

interface Entry {
  user: UserRow;
  expires: number;
}

/** createIdentityCache returns an IdentityCache; with a hub it also hears other instances' changes. */
export function createIdentityCache(options: IdentityCacheOptions = {}): IdentityCache {
  const ttlMs = options.ttlMs ?? IDENTITY_TTL_MS;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  // Moves on with every change: a load that started before a change is not kept (it may predate it).
  let generation = 0;
  const keyOf = (appId: string, id: string) => `${appId}\u0000${id}`;

  function forget(appId: string, id: string) {
    generation += 1;
    entries.delete(keyOf(appId, id));
  }

  options.hub?.handle(USER_CHANGED, (payload) => {
    const { appId, id } = (payload ?? {}) as { appId?: unknown; id?: unknown };
    if (typeof appId === 'string' && typeof id === 'string') forget(appId, id);
  });

  return {
    async find(appId, id, load) {
      const key = keyOf(appId, id);
      const found = entries.get(key);
      if (found && found.expires > now()) {
        // Re-inserted: the Map's first entry stays the least recently read.
        entries.delete(key);
        entries.set(key, found);
        return found.user;
      }
      entries.delete(key);
      const started = generation;
      const user = await load();
      if (user && generation === started) {
        entries.set(key, { user, expires: now() + ttlMs });
        if (entries.size > MAX_IDENTITIES) entries.delete(entries.keys().next().value as string);
      }
      return user;
    },
    changed(appId, id) {
      forget(appId, id);
      options.hub?.dispatch(USER_CHANGED, { appId, id });
    },
  };
}

/**
 * forgettingWrites returns users with every write telling cache which user it changed, also when the write
 * failed (its outcome may be unknown: a lost connection at commit), so no path can change a user unseen.
 */
export function forgettingWrites(users: UsersStore, cache: IdentityCache): UsersStore {
  async function write<T>(appId: string, id: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } finally {
      cache.changed(appId, id);
    }
  }
  // No spread of users: a method added to the store must be classed here as a read or a write.
  return {
    findById: (appId, id) => users.findById(appId, id),
    findByIds: (appId, ids) => users.findByIds(appId, ids),
    findByEmail: (appId, email) => users.findByEmail(appId, email),
    countAdmins: (appId) => users.countAdmins(appId),
    insert: (user) => write(user.appId, user.id, () => users.insert(user)),
    update: (appId, id, changes) => write(appId, id, () => users.update(appId, id, changes)),
    clearPendingPassword: (appId, id) => write(appId, id, () => users.clearPendingPassword(appId, id)),
    remove: (appId, id, keepLastAdmin) => write(appId, id, () => users.remove(appId, id, keepLastAdmin)),
  };
}
