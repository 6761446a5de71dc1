// The operator API under `/api/apps/:appId/admin/` (service role only): users, app settings, secrets, LLM
// usage and the audit log every change through it is written to. The CLI calls it while a server runs, so the database is never opened by two processes.
import { createRequire } from 'node:module';
import { fileStorageKind } from '../../config/files-env';
import type { SiteConfig } from '../../../../site/src/config/site-config-schema';
import { registerAdminRoutes } from '../../routes/admin';
import { registerAdminRecordRoutes } from '../../routes/admin-records';
import { registerAdminLogsRoutes } from '../../routes/admin-logs';
import { createConsoleLogs } from '../../services/admin/console-logs';
import type { LogFeed } from '../../services/app-logs/log-feed';
import { createConsoleLogsStore } from '../../store/console-logs-store';
import { registerAdminAnalyticsRoutes } from '../../routes/admin-analytics';
import { createAnalyticsCharts } from '../../services/admin/analytics-charts';
import { createAnalyticsChartsStore } from '../../store/analytics-charts-store';
import { createAdminChanges } from '../../services/admin/admin-changes';
import { createAppOverview, type ServerFacts } from '../../services/admin/app-overview';
import { createEntityBrowser } from '../../services/admin/entity-browser';
import type { RecordChanges } from '../../services/admin/record-changes';
import type { EntitiesService } from '../../services/entities/entities-service';
import { createTestMail } from '../../services/admin/test-mail';
import { createAdminUsers } from '../../services/admin/admin-users';
import { createAdminUserChanges } from '../../services/admin/admin-user-changes';
import { USER_ENTITY } from '../../project/user-entity';
import { appRolesOf } from '../../services/users/app-roles';
import { createAdminUsersStore } from '../../store/admin-users-store';
import { enabledProviders } from '../../services/auth/sign-in-providers';
import { createOverviewStore } from '../../store/overview-store';
import { localUrlOf } from '../startup-report';
import { findStartupWarnings } from '../startup-warnings';
import type { AuditLog } from '../../services/audit/audit-log';
import type { Accounts } from '../../services/auth/accounts';
import type { LlmService } from '../../services/llm/llm-service';
import type { SecretsService } from '../../services/secrets/secrets-service';
import type { Part, Shared } from './part';

/** AdminServerFacts is what only the platform knows: the database it opened, the site config it read. */
export interface AdminServerFacts {
  databaseLabel: string;
  site?: SiteConfig | undefined;
}

/** serverFactsOf describes how this server runs for the Overview: hosts and modes, never a password. */
function serverFactsOf(shared: Shared, databaseLabel: string): ServerFacts {
  const { config } = shared;
  const version = (createRequire(import.meta.url)('@queen/server/package.json') as { version: string })
    .version;
  const mail = shared.mailer.describe();
  return {
    database: { engine: config.DATABASE_URL ? 'postgres' : 'pglite', detail: databaseLabel },
    realtime: shared.realtime.mode,
    fileStorage: (() => {
      const storage = fileStorageKind(config);
      return 'kind' in storage ? storage.kind : storage.problem;
    })(),
    llm: config.LLM_PROVIDER_URL
      ? { configured: true, detail: `set (${new URL(config.LLM_PROVIDER_URL).host})` }
      : { configured: false, detail: 'not set (LLM_PROVIDER_URL)' },
    mail: { mode: config.SMTP_URL ? 'smtp' : 'outbox', detail: mail },
    version,
    startedAt: Date.now(),
    signInProviders: shared.project.auth ? enabledProviders(shared.project.auth.config) : [],
    environment: environmentOf(config, databaseLabel),
  };
}

/**
 * environmentOf is the console Settings page's read-only list: what a variable set, never a credential (SMTP
 * and Redis URLs may hold passwords: only on/off; the LLM provider: its host only).
 */
function environmentOf(config: Shared['config'], databaseLabel: string): ServerFacts['environment'] {
  const onOff = (value: unknown) => (value ? 'on' : 'off');
  const storage = fileStorageKind(config);
  return [
    { variable: 'PUBLIC_URL', value: config.PUBLIC_URL ?? 'not set' },
    { variable: 'DATABASE_URL', value: databaseLabel },
    { variable: 'REDIS_URL', value: onOff(config.REDIS_URL) },
    { variable: 'SMTP_URL', value: onOff(config.SMTP_URL) },
    {
      variable: 'LLM_PROVIDER_URL',
      value: config.LLM_PROVIDER_URL ? new URL(config.LLM_PROVIDER_URL).host : 'not set',
    },
    { variable: 'FILE_STORAGE', value: 'kind' in storage ? storage.kind : storage.problem },
    {
      variable: 'REALTIME_MAX_SOCKETS',
      value: String(config.REALTIME_MAX_SOCKETS ?? 'from the open-files limit'),
    },
    { variable: 'APP_LOG_RETENTION_DAYS', value: String(config.APP_LOG_RETENTION_DAYS) },
  ];
}

/** buildAdminPart serves the operator API on the other parts' services. */
export function buildAdminPart(
  shared: Shared,
  auth: { accounts: Accounts },
  secrets: { secrets: SecretsService; report: { keySource: string } },
  llm: { llm: LlmService },
  appLogs: { audit: AuditLog; logFeed: LogFeed },
  entities: { entities: EntitiesService; recordChanges: RecordChanges },
  server: AdminServerFacts,
): Part {
  const changes = createAdminChanges({
    users: auth.accounts.users,
    findUser: (appId, email) => shared.identity.users.findByEmail(appId, email),
    apps: shared.apps,
    secrets: secrets.secrets,
    audit: appLogs.audit,
  });
  const { config } = shared;
  const counts = createOverviewStore(shared.db);
  const adminUsersStore = createAdminUsersStore(shared.db);
  const userEntity = shared.project.entities.get(USER_ENTITY);
  const userChanges = createAdminUserChanges({
    users: shared.identity.users,
    writes: auth.accounts.userWrites,
    access: auth.accounts.users,
    signIn: auth.accounts.signIn,
    audit: appLogs.audit,
  });
  const overview = createAppOverview({
    store: counts,
    apps: shared.apps,
    appName: shared.project.name,
    entityNames: [...shared.project.entities.keys()],
    facts: serverFactsOf(shared, server.databaseLabel),
    warnings: () =>
      findStartupWarnings({
        config,
        apps: shared.apps,
        localUrl: localUrlOf(config),
        secretsKeySource: secrets.report.keySource,
        site: server.site,
      }),
  });
  return {
    name: 'admin',
    routes: (app, { guard }) => {
      registerAdminLogsRoutes(app, {
        guard,
        logs: createConsoleLogs(createConsoleLogsStore(shared.db)),
        feed: appLogs.logFeed,
      });
      registerAdminRecordRoutes(app, {
        guard,
        records: entities.recordChanges,
      });
      registerAdminAnalyticsRoutes(app, {
        guard,
        charts: createAnalyticsCharts({
          store: createAnalyticsChartsStore(shared.db),
          dailyTokenBudget: config.LLM_DAILY_TOKEN_BUDGET,
        }),
      });
      registerAdminRoutes(app, {
        changes,
        audit: appLogs.audit,
        guard,
        hub: shared.realtime.hub,
        secrets: secrets.secrets,
        llm: llm.llm,
        overview,
        browser: createEntityBrowser({
          project: shared.project,
          counts,
          access: shared.access,
          entities: entities.entities,
        }),
        users: createAdminUsers(adminUsersStore, {
          roles: appRolesOf(userEntity),
          custom: userEntity?.custom,
        }),
        userChanges,
        publicUrl: config.PUBLIC_URL,
        testMail: createTestMail({
          mailer: shared.mailer,
          limiter: shared.limiter,
          audit: appLogs.audit,
          appName: shared.project.name,
        }),
      });
    },
  };
}
