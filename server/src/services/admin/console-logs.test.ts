// The console Logs page's reads on a real embedded database: keyset pages that neither skip nor repeat a
// row (several rows share one millisecond), the filters, one call's output, and the live feed told each
// committed batch with the stored ids.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConsoleAuditQuerySchema,
  ConsoleFunctionLogsQuerySchema,
  ConsolePageViewsQuerySchema,
} from '../../schemas/console-logs';
import { createAppLogsStore } from '../../store/app-logs-store';
import { createAppsStore } from '../../store/apps-store';
import { createAuditLogStore } from '../../store/audit-log-store';
import { createConsoleLogsStore } from '../../store/console-logs-store';
import type { Database } from '../../store/database';
import { createFunctionLogsStore } from '../../store/function-logs-store';
import { openTestDatabase, type TestDatabase } from '../../test-support/open-test-database';
import { createAppLogsService } from '../app-logs/app-logs-service';
import {
  createLogFeed,
  MAX_LIVE_ROWS,
  type LiveFunctionCall,
  type LiveLogRow,
  type LogFeed,
} from '../app-logs/log-feed';
import { createAuditLog } from '../audit/audit-log';
import { createRateLimiter } from '../limits/rate-limiter';
import { createConsoleLogs } from './console-logs';

const APP = 'console-logs-app';
let opened: TestDatabase | undefined;
let db: Database;

beforeAll(async () => {
  opened = await openTestDatabase({ engine: 'pglite' });
  db = opened.db;
  await createAppsStore(db).ensure(APP);
  await createAppsStore(db).ensure('other-app');
});

afterAll(async () => {
  await opened?.close();
});

/** hub is an in-process stand-in for the realtime hub: dispatch runs the handler at once. */
function hub() {
  const handlers = new Map<string, (payload: unknown) => void>();
  return {
    dispatch: (name: string, payload: unknown) => handlers.get(name)?.(payload),
    handle: (name: string, handler: (payload: unknown) => void) => void handlers.set(name, handler),
  };
}

/** logsTellingFeed is the app logs service on the test database, telling feed each committed write. */
function logsTellingFeed(feed: LogFeed) {
  return createAppLogsService({
    store: createAppLogsStore(db),
    functionStore: createFunctionLogsStore(db),
    limiter: createRateLimiter(),
    visitorSecret: 'secret',
    retentionDays: 30,
    ratePerMinute: 1000,
    flushMs: 60_000,
    bufferMax: 1000,
    log: { warn: () => undefined, error: () => undefined },
    feed,
  });
}

describe('console logs', () => {
  it('pages function calls by keyset without skipping or repeating rows, filtered, and opens one', async () => {
    const feed = createLogFeed(hub(), 5);
    const pushed: LiveFunctionCall[] = [];
    const unsubscribe = feed.subscribe(APP, 'functions', (calls) =>
      pushed.push(...(calls as LiveFunctionCall[])),
    );
    const logs = logsTellingFeed(feed);
    // 7 calls, three of them in the same millisecond.
    const times = ['01', '02', '02', '02', '03', '04', '05'].map((s) => `2026-11-20T10:00:${s}.000Z`);
    times.forEach((at, index) =>
      logs.recordFunctionCall(index === 6 ? 'other-app' : APP, {
        function: index % 2 === 0 ? 'even' : 'odd',
        requestId: `req-${index}`,
        trigger: 'http',
        userId: index === 2 || index === 4 ? 'caller-1' : null,
        status: index === 3 ? 500 : 200,
        durationMs: index,
        output: [{ stream: 'stdout', line: `call ${index}` }],
        outputDropped: 0,
        at,
      }),
    );
    await logs.flush();
    unsubscribe?.();
    expect(pushed.map((call) => call.request_id)).toEqual([
      'req-0',
      'req-1',
      'req-2',
      'req-3',
      'req-4',
      'req-5',
    ]);
    expect(feed.listeners()).toBe(0);

    const reads = createConsoleLogs(createConsoleLogsStore(db));
    const query = (params: Record<string, string>) => ConsoleFunctionLogsQuerySchema.parse(params);
    const seen: string[] = [];
    let next: string | null = null;
    do {
      const page = await reads.functionCalls(
        APP,
        query(next ? { limit: '2', before: next } : { limit: '2' }),
      );
      seen.push(...page.items.map((item) => item.request_id ?? ''));
      next = page.next;
    } while (next);
    expect(seen).toEqual(['req-5', 'req-4', 'req-3', 'req-2', 'req-1', 'req-0']);

    const failed = await reads.functionCalls(APP, query({ status: 'error' }));
    expect(failed.items.map((item) => item.request_id)).toEqual(['req-3']);
    const odd = await reads.functionCalls(APP, query({ function: 'odd', to: '2026-11-20T10:00:03Z' }));
    expect(odd.items.map((item) => item.request_id)).toEqual(['req-3', 'req-1']);
    const byCaller = await reads.functionCalls(APP, query({ user: 'caller-1' }));
    expect(byCaller.items.map((item) => [item.request_id, item.user_id])).toEqual([
      ['req-4', 'caller-1'],
      ['req-2', 'caller-1'],
    ]);
    expect(pushed.filter((call) => call.user_id === 'caller-1').map((call) => call.request_id)).toEqual([
      'req-2',
      'req-4',
    ]);
    const one = await reads.functionCalls(APP, query({ request_id: 'req-4' }));
    expect(one.items).toHaveLength(1);
    const pushedId = pushed.find((call) => call.request_id === 'req-4')?.id ?? '';
    expect(one.items[0]?.id).toBe(pushedId);
    expect(await reads.functionOutput(APP, pushedId)).toEqual({
      id: pushedId,
      output: [{ stream: 'stdout', line: 'call 4' }],
    });
    await expect(reads.functionOutput('other-app', pushedId)).rejects.toThrow('No such function call');
    await logs.close();
  });

  it('filters page views by time range, page and user, and the audit log by time range and actor', async () => {
    await db.query(
      `INSERT INTO app_page_views (app_id, page, user_id, visitor_key, viewed_at) VALUES
         ($1, 'Home', 'u1', 'v', '2026-11-20T09:00:00Z'), ($1, 'Home', 'u2', 'v', '2026-11-20T11:00:00Z'),
         ($1, 'Shop', 'u1', 'v', '2026-11-20T12:00:00Z'), ('other-app', 'Home', 'u1', 'v', '2026-11-20T11:00:00Z')`,
      [APP],
    );
    const audit = createAuditLog(createAuditLogStore(db));
    const admin = { kind: 'admin' as const, id: 'a1', email: 'one@admin.test' };
    await audit.record(APP, admin, { action: 'secret.set', target: 'secret:EARLY' });
    await audit.record(APP, { kind: 'cli' }, { action: 'secret.set', target: 'secret:CLI' });
    await audit.record(APP, admin, { action: 'secret.delete', target: 'secret:LATE' });
    await db.query(
      `UPDATE app_audit_log SET logged_at = CASE target
         WHEN 'secret:EARLY' THEN timestamptz '2026-11-20T09:00:00Z'
         WHEN 'secret:CLI' THEN timestamptz '2026-11-20T10:00:00Z' ELSE timestamptz '2026-11-20T11:00:00Z' END
       WHERE app_id = $1`,
      [APP],
    );
    const reads = createConsoleLogs(createConsoleLogsStore(db));
    const views = async (params: Record<string, string>) =>
      (await reads.pageViews(APP, ConsolePageViewsQuerySchema.parse(params))).items.map(
        (view) => `${view.page}:${view.user_id}`,
      );
    expect(await views({})).toEqual(['Shop:u1', 'Home:u2', 'Home:u1']);
    expect(await views({ page: 'Home' })).toEqual(['Home:u2', 'Home:u1']);
    expect(await views({ user: 'u1' })).toEqual(['Shop:u1', 'Home:u1']);
    expect(await views({ from: '2026-11-20T10:00:00Z', to: '2026-11-20T12:00:00Z' })).toEqual(['Home:u2']);
    const entries = async (params: Record<string, string>) =>
      (await reads.audit(APP, ConsoleAuditQuerySchema.parse(params))).items.map((entry) => entry.target);
    expect(await entries({})).toEqual(['secret:LATE', 'secret:CLI', 'secret:EARLY']);
    expect(await entries({ user: 'one@admin.test' })).toEqual(['secret:LATE', 'secret:EARLY']);
    expect(await entries({ user: 'a1', from: '2026-11-20T10:00:00Z' })).toEqual(['secret:LATE']);
    expect(await entries({ to: '2026-11-20T10:30:00Z', from: '2026-11-20T09:30:00Z' })).toEqual([
      'secret:CLI',
    ]);
  });

  it('pushes committed page views and audit rows, with their stored ids, to their own listeners only', async () => {
    const feed = createLogFeed(hub(), 5);
    const seen: Record<string, LiveLogRow[]> = { functions: [], 'page-views': [], audit: [] };
    for (const kind of ['functions', 'page-views', 'audit'] as const) {
      feed.subscribe(APP, kind, (rows) => seen[kind]?.push(...rows));
    }
    const logs = logsTellingFeed(feed);
    const view = {
      userId: 'u9',
      referrer: 'https://ref.example/a?token=x',
      ip: '192.0.2.1',
      userAgent: 'ua',
    };
    logs.record(APP, { ...view, page: 'LivePage' });
    logs.record('other-app', { ...view, page: 'OtherApp' });
    await logs.flush();
    await logs.close();
    const reads = createConsoleLogs(createConsoleLogsStore(db));
    const stored = await reads.pageViews(APP, ConsolePageViewsQuerySchema.parse({ page: 'LivePage' }));
    expect(seen['page-views']).toEqual(stored.items.map((item) => ({ app_id: APP, ...item })));
    expect(seen['page-views']).toEqual([
      expect.objectContaining({ page: 'LivePage', user_id: 'u9', referrer: 'https://ref.example/a' }),
    ]);

    await createAuditLog(createAuditLogStore(db), feed).record(
      APP,
      { kind: 'cli' },
      { action: 'secret.set', target: 'secret:LIVE', after: { value: 'never', note: 'kept' } },
    );
    const [entry] = (await reads.audit(APP, ConsoleAuditQuerySchema.parse({}))).items;
    expect(entry?.target).toBe('secret:LIVE');
    expect(seen.audit).toEqual([{ app_id: APP, ...entry }]);
    expect(seen.functions).toEqual([]);
  });

  it('publishes at most the newest MAX_LIVE_ROWS rows of one write', () => {
    const feed = createLogFeed(hub(), 5);
    const seen: LiveLogRow[] = [];
    feed.subscribe(APP, 'page-views', (rows) => seen.push(...rows));
    const rows = Array.from({ length: MAX_LIVE_ROWS + 5 }, (_, index) => ({
      app_id: APP,
      id: String(index),
    }));
    feed.publish('page-views', rows);
    expect(seen).toHaveLength(MAX_LIVE_ROWS);
    expect(seen.at(-1)?.id).toBe(String(MAX_LIVE_ROWS + 4));
  });

  it('refuses a listener past the bound', () => {
    const feed = createLogFeed(hub(), 1);
    expect(feed.subscribe(APP, 'functions', () => undefined)).not.toBeNull();
    expect(feed.subscribe(APP, 'audit', () => undefined)).toBeNull();
  });
});
