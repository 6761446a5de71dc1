// Entities: records with their access rules, the read cache (one instance, or invalidated through Redis),
// the project's seed data, `$regex` query budgets, and realtime delivery of committed writes to the
// `entities:<app>:<Entity>` rooms, each socket's copy filtered by its reader's read rules.
import type { ServerConfig } from '../../config/server-env';
import { USER_ENTITY } from '../../project/user-entity';
import { registerEntitiesRoutes } from '../../routes/entities';
import { createRecordChanges, type RecordChanges } from '../../services/admin/record-changes';
import type { AuditLog } from '../../services/audit/audit-log';
import type { Accounts } from '../../services/auth/accounts';
import { entityRooms, startEntityDelivery } from '../../services/delivery/entity-delivery';
import { createSocketIdentities, type SocketIdentities } from '../../services/delivery/socket-identities';
import { cacheAcrossInstances } from '../../services/entities/cached-records-store';
import { createEntitiesService, type EntitiesService } from '../../services/entities/entities-service';
import { createReadCache } from '../../services/entities/read-cache';
import { createRegexBudget } from '../../services/limits/regex-budget';
import { createEntityRecordsStore } from '../../store/entity-records-store';
import type { Part, Shared } from './part';

/** READ_CACHE_TTL_MS bounds how long a cached entity read lives even without writes (lost invalidations). */
const READ_CACHE_TTL_MS = 30_000;

/** EntitiesPart is the entities service, whether reads are cached, and what this start seeded. */
export interface EntitiesPart extends Part {
  entities: EntitiesService;
  /** recordChanges are the operators' audited record writes (the console's, an operator's import). */
  recordChanges: RecordChanges;
  readCache: boolean;
  /** seeded is how many seed records this start stored, per entity. */
  seeded: Record<string, number>;
  /** socketIdentities are the sockets' identities as deliveries check them (agent pushes share them). */
  socketIdentities: SocketIdentities;
}

/** readCacheOn says whether entity reads are cached: READ_CACHE=on, or auto on a single instance. */
function readCacheOn(config: ServerConfig): boolean {
  return config.READ_CACHE === 'on' || (config.READ_CACHE === 'auto' && !config.REDIS_URL);
}

/** buildEntitiesPart builds the entities service, seeds the project's records and starts delivery. */
export async function buildEntitiesPart(
  shared: Shared,
  auth: { accounts: Accounts },
  appLogs: { audit: AuditLog },
): Promise<EntitiesPart> {
  const { config, project, realtime } = shared;
  const recordsStore = createEntityRecordsStore(shared.db);
  const readCache = readCacheOn(config);
  const entities = createEntitiesService({
    project,
    store: readCache
      ? cacheAcrossInstances(
          recordsStore,
          createReadCache({
            maxBytes: config.READ_CACHE_MB * 1024 * 1024,
            ttlMs: READ_CACHE_TTL_MS,
            trusted: realtime.peersInSync,
          }),
          realtime.hub,
        )
      : recordsStore,
    events: shared.events,
    users: auth.accounts.userWrites,
    rowsShared: readCache,
  });
  const seeded = await entities.seed(config.APP_ID);
  // Committed writes go to subscribed sockets, each filtered by its reader's read rules, on every instance.
  const socketIdentities = createSocketIdentities({
    identifyMany: shared.access.socketAccessMany,
    sockets: () => realtime.hub.localSockets(),
    log: shared.logger,
  });
  startEntityDelivery({
    project,
    events: shared.events,
    hub: realtime.hub,
    identities: socketIdentities,
    admitsAnonymous: shared.access.admitsAnonymous,
    log: shared.logger,
  });
  const regexBudget = createRegexBudget(
    shared.countPer(60_000),
    config.ENTITY_REGEX_SCAN_MS_PER_MINUTE,
    undefined,
    // PGlite runs one statement at a time anyway; on PostgreSQL regex scans hold at most half the pool.
    config.DATABASE_URL ? Math.max(1, Math.floor(config.DATABASE_POOL_SIZE / 2)) : 1,
  );
  // The operators' record changes, audited: the console's writes, and any operator's import.
  const recordChanges = createRecordChanges({ entities, audit: appLogs.audit });
  return {
    name: 'entities',
    entities,
    recordChanges,
    readCache,
    seeded,
    socketIdentities,
    close: async () => socketIdentities.stop(),
    rooms: [entityRooms((entity) => entity === USER_ENTITY || project.entities.has(entity))],
    routes: (app, { guard }) =>
      registerEntitiesRoutes(app, {
        guard,
        entities,
        users: auth.accounts.users,
        regexBudget,
        imports: recordChanges,
      }),
  };
}
