// The CLI's direct mode: with no server on DATA_DIR, the services the server's API calls, built on the
// database itself (PGlite admits one process; with DATABASE_URL any number may open PostgreSQL).
import { pino } from 'pino';
import type { ServerConfig } from '../config/server-env';
import { buildAccountsPart, buildSecretsService, openPlatformDatabase } from '../platform/platform';
import { USER_ENTITY } from '../project/user-entity';
import { createAppLogsService, type AppLogsService } from '../services/app-logs/app-logs-service';
import { createAppsService } from '../services/apps/apps-service';
import { createAdminChanges, type AdminChanges } from '../services/admin/admin-changes';
import { createAuditLog, type AuditActor } from '../services/audit/audit-log';
import { pruneFiles, type PruneReport } from '../services/files/file-prune';
import { openFileStorage } from '../services/files/open-file-storage';
import { createRateLimiter } from '../services/limits/rate-limiter';
import type { SecretsService } from '../services/secrets/secrets-service';
import { createAppLogsStore } from '../store/app-logs-store';
import { createAppsStore } from '../store/apps-store';
import { createAuditLogStore } from '../store/audit-log-store';
import { createFilesStore } from '../store/files-store';
import { createFunctionLogsStore } from '../store/function-logs-store';
import { createUsersStore } from '../store/users-store';
import type { CliContext } from './cli-context';

/** CLI_ACTOR is who the audit log names for a change the CLI makes on the database itself. */
export const CLI_ACTOR: AuditActor = { kind: 'cli' };

/** OfflineServices are built on demand, so a command builds (and writes) only what it uses. */
export interface OfflineServices {
  /** changes are the admin API's audited changes (users, settings, secrets), logged as the CLI's. */
  changes(): Promise<AdminChanges>;
  /** secrets is the admin API's secrets service, with the configured key and no other instance to tell. */
  secrets(): SecretsService;
  /** ensureApp creates the app's row if it is missing (a secret belongs to an app). */
  ensureApp(): Promise<void>;
  /** appLogs reads function calls as `GET /api/app-logs/{app}` does; nothing is recorded through it. */
  appLogs(): AppLogsService;
  /** pruneFiles removes uploads no record references (no API does: it runs offline only). */
  pruneFiles(options: { dryRun: boolean; minAgeSeconds: number }): Promise<PruneReport>;
}

/** withOfflineServices opens (and migrates) the database, hands use its services, and closes it. */
export async function withOfflineServices<T>(
  context: Pick<CliContext, 'config' | 'secrets' | 'project'>,
  use: (services: OfflineServices) => Promise<T>,
): Promise<T> {
  const { config, secrets } = context;
  const { db } = await openPlatformDatabase(config);
  const log = pino({ level: 'warn' });
  try {
    return await use({
      async changes() {
        // The project's User entity: its declared roles and default, as the server has them.
        const userEntity = context.project.entities.get(USER_ENTITY);
        const part = await buildAccountsPart({ config, db, secrets, log, userEntity });
        const users = createUsersStore(db);
        return createAdminChanges({
          users: part.accounts.users,
          findUser: (appId, email) => users.findByEmail(appId, email),
          apps: part.apps,
          secrets: buildSecretsService(db, secrets),
          audit: createAuditLog(createAuditLogStore(db)),
        });
      },
      secrets: () => buildSecretsService(db, secrets),
      ensureApp: () => createAppsService(createAppsStore(db)).ensureApp(config.APP_ID),
      appLogs: () =>
        // Built as the server builds it; only its reads run here, so the limiter and buffer never act.
        createAppLogsService({
          store: createAppLogsStore(db),
          functionStore: createFunctionLogsStore(db),
          limiter: createRateLimiter(),
          visitorSecret: secrets.jwtSecret,
          retentionDays: config.APP_LOG_RETENTION_DAYS,
          ratePerMinute: config.APP_LOG_RATE_LIMIT_PER_MINUTE,
          flushMs: config.APP_LOG_FLUSH_MS,
          bufferMax: config.APP_LOG_BUFFER_MAX,
          log,
        }),
      pruneFiles: async (options) =>
        pruneFiles({ files: createFilesStore(db), storage: await openFileStorage(config, db), ...options }),
    });
  } finally {
    await db.close();
  }
}

/** migrateDatabase creates or upgrades the database and closes it, saying which migrations it applied. */
export async function migrateDatabase(
  config: ServerConfig,
): Promise<{ database: string; applied: string[] }> {
  const { db, label, applied } = await openPlatformDatabase(config);
  await db.close();
  return { database: label, applied };
}
