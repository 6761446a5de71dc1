import type { RealtimeHub } from '../../realtime/realtime-hub';
import type { EntityRecordsStore, Selection } from '../../store/entity-records-store';
import type { ReadCache } from './read-cache';

/** ENTITY_WRITTEN is the name under which instances tell each other an entity changed. */
export const ENTITY_WRITTEN = 'queen:entity-written';

/**
 * cacheAcrossInstances returns store with reads cached in cache, writes on any instance (through hub)
 * retiring the answers about the entity they touched.
 */
export function cacheAcrossInstances(
  store: EntityRecordsStore,
  cache: ReadCache,
  hub: Pick<RealtimeHub, 'dispatch' | 'handle'>,
): EntityRecordsStore {
  hub.handle(ENTITY_WRITTEN, (payload) => {
    const { appId, entity } = (payload ?? {}) as { appId?: unknown; entity?: unknown };
    if (typeof appId === 'string' && typeof entity === 'string') cache.invalidate(appId, entity);
  });
  return withReadCache(store, cache, (appId, entity) => hub.dispatch(ENTITY_WRITTEN, { appId, entity }));
}

/**
 * withReadCache returns store with its reads answered from cache and every write retiring the cached
 * answers about the entity it touched: locally before the write's promise settles (so this instance
 * reads its own writes), and through `written` for the other instances. Selections of another source
 * (the built-in User, read from the users table that other services write) always go to the database.
 * NB: a cached answer is shared by every caller asking the same question: callers must not mutate it.
 */
export function withReadCache(
  store: EntityRecordsStore,
  cache: ReadCache,
  written: (appId: string, entity: string) => void = () => undefined,
): EntityRecordsStore {
  // The key is everything the SQL is built from besides app and entity (the cache's scope): the rule as
  // resolved for this caller, their query, the fields they may see, and the page.
  const keyOf = (op: string, selection: Selection, ...rest: unknown[]) =>
    JSON.stringify([
      op,
      selection.rule,
      selection.query ?? null,
      selection.visibility ? [...selection.visibility] : null,
      rest,
    ]);

  function read<T>(selection: Selection, key: string, load: () => Promise<T>): Promise<T> {
    if (selection.source !== undefined) return load();
    return cache.read(selection.appId, selection.entity, key, load);
  }

  async function write<T>(appId: string, entity: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } finally {
      // Also on failure: a write whose outcome is unknown (a lost connection at commit) may have landed.
      cache.invalidate(appId, entity);
      written(appId, entity);
    }
  }

  // No spread of store: a method added to the store must be classed here as a read or a write.
  return {
    findMany: (selection, page) =>
      read(selection, keyOf('many', selection, page), () => store.findMany(selection, page)),
    findPage: (selection, page) =>
      read(selection, keyOf('page', selection, page), () => store.findPage(selection, page)),
    findOne: (selection, id) =>
      read(selection, keyOf('one', selection, id), () => store.findOne(selection, id)),
    count: (selection) => read(selection, keyOf('count', selection), () => store.count(selection)),
    distinctValues: (selection, field, limit, after) =>
      read(selection, keyOf('distinct', selection, field, limit, after ?? null), () =>
        store.distinctValues(selection, field, limit, after),
      ),
    aggregate: (selection, plan) =>
      read(selection, keyOf('aggregate', selection, plan), () => store.aggregate(selection, plan)),

    insertMany: (appId, entity, records) =>
      write(appId, entity, () => store.insertMany(appId, entity, records)),
    importMany: (appId, entity, records) =>
      write(appId, entity, () => store.importMany(appId, entity, records)),
    seedOnce: (appId, entity, records) => write(appId, entity, () => store.seedOnce(appId, entity, records)),
    updateOne: (selection, id, change) =>
      write(selection.appId, selection.entity, () => store.updateOne(selection, id, change)),
    updateSelected: (selection, options, plan) =>
      write(selection.appId, selection.entity, () => store.updateSelected(selection, options, plan)),
    upsertByKey: (appId, entity, key, keyValues, readRule, updateRule, plan) =>
      write(appId, entity, () =>
        store.upsertByKey(appId, entity, key, keyValues, readRule, updateRule, plan),
      ),
    deleteOne: (selection, id) =>
      write(selection.appId, selection.entity, () => store.deleteOne(selection, id)),
    deleteMany: (selection) => write(selection.appId, selection.entity, () => store.deleteMany(selection)),
  };
}
