// A read cache for entity queries. Every answer is filed under its entity (app + name) and the exact
// inputs of its query — the caller's rule as resolved for them, their query, visibility and page — so an
// answer is only ever handed back for the same question. Any committed write to the entity bumps the
// entity's generation, which retires every answer filed under it; an answer loaded while a write landed
// is not kept (its generation moved on while it was in flight).

const MEMORY_PER_JSON_BYTE = 4;

/** ReadCacheOptions bound the cache. */
export interface ReadCacheOptions {
  /** maxBytes is the memory budget (answers measured as JSON); the least recently used go first. */
  maxBytes: number;
  /** ttlMs bounds how long an answer lives even without writes (backstop for lost invalidations). */
  ttlMs: number;
  /** trusted says whether invalidations from other instances are arriving; while false, nothing is cached. */
  trusted?: () => boolean;
  now?: () => number;
}

interface Entry {
  scope: string;
  generation: number;
  expires: number;
  bytes: number;
  value: unknown;
}

/** ReadCache keeps answers to entity reads until a write to the entity retires them. */
export interface ReadCache {
  /**
   * read returns the kept answer to key about appId's entity, or runs load and keeps its answer.
   *
   * @example const rows = await cache.read(appId, 'Todo', JSON.stringify(selection), () => store.findMany(…));
   */
  read<T>(appId: string, entity: string, key: string, load: () => Promise<T>): Promise<T>;
  /** invalidate retires every answer about appId's entity; call it after each committed write to it. */
  invalidate(appId: string, entity: string): void;
  /** stats reports the cache's size and hit counts (for logs and tests). */
  stats(): { entries: number; bytes: number; hits: number; misses: number };
}

/** createReadCache returns a ReadCache within the given memory budget and lifetime. */
export function createReadCache(options: ReadCacheOptions): ReadCache {
  const now = options.now ?? Date.now;
  const trusted = options.trusted ?? (() => true);
  // Map iteration order is insertion order: re-inserting on a hit makes the first entry the least recent.
  const entries = new Map<string, Entry>();
  const generations = new Map<string, number>();
  const keysByScope = new Map<string, Set<string>>();
  let bytes = 0;
  let hits = 0;
  let misses = 0;
  let wasTrusted = true;

  const scopeOf = (appId: string, entity: string) => `${appId}\u0000${entity}`;

  function drop(key: string, entry: Entry) {
    entries.delete(key);
    keysByScope.get(entry.scope)?.delete(key);
    bytes -= entry.bytes;
  }

  function clear() {
    entries.clear();
    keysByScope.clear();
    bytes = 0;
    // Every scope moves on, so loads in flight are not kept either.
    for (const [scope, generation] of generations) generations.set(scope, generation + 1);
  }

  function keep(key: string, entry: Entry) {
    if (entry.bytes > options.maxBytes / 8) return; // one answer never crowds out the rest
    const previous = entries.get(key); // two concurrent misses of one question both arrive here
    if (previous) drop(key, previous);
    entries.set(key, entry);
    let keys = keysByScope.get(entry.scope);
    if (!keys) keysByScope.set(entry.scope, (keys = new Set()));
    keys.add(key);
    bytes += entry.bytes;
    for (const [oldest, old] of entries) {
      if (bytes <= options.maxBytes) break;
      drop(oldest, old);
    }
  }

  return {
    async read<T>(appId: string, entity: string, key: string, load: () => Promise<T>): Promise<T> {
      const isTrusted = trusted();
      if (!isTrusted || !wasTrusted) {
        // Answers kept before (or during) an outage may have missed invalidations.
        if (entries.size > 0) clear();
        wasTrusted = isTrusted;
        if (!isTrusted) return load();
      }
      const scope = scopeOf(appId, entity);
      const fullKey = `${scope}\u0000${key}`;
      const generation = generations.get(scope) ?? 0;
      const found = entries.get(fullKey);
      if (found) {
        if (found.generation === generation && found.expires > now()) {
          hits++;
          entries.delete(fullKey);
          entries.set(fullKey, found);
          return found.value as T;
        }
        drop(fullKey, found);
      }
      misses++;
      const value = await load();
      if ((generations.get(scope) ?? 0) === generation && trusted()) {
        // In memory an answer weighs about four times its JSON: the objects themselves, the record made
        // from each row and the JSON text kept for sending it (see read-records, json-text).
        const size = MEMORY_PER_JSON_BYTE * (JSON.stringify(value)?.length ?? 0);
        keep(fullKey, {
          scope,
          generation,
          expires: now() + options.ttlMs,
          bytes: size + fullKey.length,
          value,
        });
      }
      return value;
    },
    invalidate(appId, entity) {
      const scope = scopeOf(appId, entity);
      generations.set(scope, (generations.get(scope) ?? 0) + 1);
      for (const key of keysByScope.get(scope) ?? []) {
        const entry = entries.get(key);
        if (entry) drop(key, entry);
      }
      keysByScope.delete(scope);
    },
    stats: () => ({ entries: entries.size, bytes, hits, misses }),
  };
}
