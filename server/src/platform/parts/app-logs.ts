// What visitors and functions did: page views (`appLogs.logUserInApp`), function call logs, their
// retention, and the analytics events the SDK batches.
import { registerAnalyticsRoutes } from '../../routes/analytics';
import { registerAppLogsRoutes } from '../../routes/app-logs';
import { createAnalyticsService } from '../../services/analytics/analytics-service';
import { createAppLogsService, type AppLogsService } from '../../services/app-logs/app-logs-service';
import { createAnalyticsStore } from '../../store/analytics-store';
import { createAppLogsStore } from '../../store/app-logs-store';
import { createAuditLogStore } from '../../store/audit-log-store';
import { createAuditLog, type AuditLog } from '../../services/audit/audit-log';
import { createFunctionLogsStore } from '../../store/function-logs-store';
import { createMailLogStore } from '../../store/mail-log-store';
import { createLogFeed, type LogFeed } from '../../services/app-logs/log-feed';
import type { Part, Shared } from './part';

/** AppLogsPart is the app logs service (the functions part records each call in it). */
export interface AppLogsPart extends Part {
  appLogs: AppLogsService;
  /** audit is the operators' change log (the admin part writes it). */
  audit: AuditLog;
  /** logFeed pushes committed function calls, page views and audit rows to the console's live Logs page. */
  logFeed: LogFeed;
}

/** LIVE_LOG_STREAMS bounds the console's live log streams one instance holds open. */
const LIVE_LOG_STREAMS = 200;

/** buildAppLogsPart builds the app logs, starts their pruning, and writes the buffered views on close. */
export function buildAppLogsPart(shared: Shared): AppLogsPart {
  const { config, db } = shared;
  const logFeed = createLogFeed(shared.realtime.hub, LIVE_LOG_STREAMS);
  const audit = createAuditLog(createAuditLogStore(db), logFeed);
  const appLogs = createAppLogsService({
    audit,
    mailLog: createMailLogStore(db),
    feed: logFeed,
    store: createAppLogsStore(db),
    functionStore: createFunctionLogsStore(db),
    limiter: shared.limiter,
    visitorSecret: shared.secrets.jwtSecret,
    retentionDays: config.APP_LOG_RETENTION_DAYS,
    ratePerMinute: config.APP_LOG_RATE_LIMIT_PER_MINUTE,
    flushMs: config.APP_LOG_FLUSH_MS,
    bufferMax: config.APP_LOG_BUFFER_MAX,
    log: shared.logger,
  });
  const analytics = createAnalyticsService(shared.apps, createAnalyticsStore(db));
  appLogs.startPruning();
  return {
    name: 'app logs',
    appLogs,
    audit,
    logFeed,
    routes(app, { guard }) {
      registerAppLogsRoutes(app, { guard, appLogs });
      registerAnalyticsRoutes(app, { guard, analytics });
    },
    // After the functions part has settled its calls (parts close in reverse order).
    close: () => appLogs.close(),
  };
}
