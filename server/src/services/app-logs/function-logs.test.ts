// Function calls in the app logs, on a real embedded database: buffered, read back through fetchLogs'
// `type=function`/`function`/`request_id` filters (page views stay apart), and pruned with the page views.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchLogsQuerySchema } from '../../schemas/app-logs';
import { createAppLogsStore } from '../../store/app-logs-store';
import { createAppsStore } from '../../store/apps-store';
import type { Database } from '../../store/database';
import { createFunctionLogsStore } from '../../store/function-logs-store';
import { createRateLimiter } from '../limits/rate-limiter';
import type { FunctionCallRecord } from '../functions/functions-service';
import { createAppLogsService } from './app-logs-service';
import { openTestDatabase, type TestDatabase } from '../../test-support/open-test-database';

const APP = 'fn-logs-app';
let opened: TestDatabase | undefined;
let db: Database;
const clock = new Date('2026-11-20T10:00:00.000Z');

function service() {
  return createAppLogsService({
    store: createAppLogsStore(db),
    functionStore: createFunctionLogsStore(db),
    limiter: createRateLimiter(),
    visitorSecret: 'test-secret',
    retentionDays: 30,
    ratePerMinute: 1000,
    flushMs: 60_000,
    bufferMax: 1000,
    log: { warn: () => undefined, error: () => undefined },
    now: () => clock,
  });
}

const call = (name: string, at: string, extra: Partial<FunctionCallRecord> = {}): FunctionCallRecord => ({
  function: name,
  requestId: 'req-1',
  trigger: 'http',
  userId: null,
  status: 200,
  durationMs: 12,
  output: [{ stream: 'stdout', line: `hello from ${name}` }],
  outputDropped: 0,
  at,
  ...extra,
});

beforeAll(async () => {
  opened = await openTestDatabase({ engine: 'pglite' });
  db = opened.db;
  await createAppsStore(db).ensure(APP);
});

afterAll(async () => {
  await opened?.close();
});

describe('function logs', () => {
  it('keeps calls apart from page views and filters them by function and request id', async () => {
    const logs = service();
    logs.record(APP, { page: 'Home', userId: null, referrer: undefined, ip: '192.0.2.1', userAgent: 'x' });
    expect(logs.recordFunctionCall(APP, call('greet', '2026-11-20T09:59:00.000Z'))).toBe(true);
    logs.recordFunctionCall(
      APP,
      call('greet', '2026-11-20T09:59:30.000Z', { requestId: 'req-2', status: 500 }),
    );
    logs.recordFunctionCall(
      APP,
      call('other', '2026-11-20T09:59:40.000Z', { trigger: 'automation', requestId: null }),
    );
    const all = await logs.fetchFunctionLogs(APP, FetchLogsQuerySchema.parse({ type: 'function' }));
    expect(all.items.map((item) => item.function)).toEqual(['other', 'greet', 'greet']);
    expect(all.items[0]).toMatchObject({ type: 'function', trigger: 'automation', request_id: null });
    const greet = await logs.fetchFunctionLogs(APP, FetchLogsQuerySchema.parse({ function: 'greet' }));
    expect(greet.items).toHaveLength(2);
    expect(greet.items[0]).toMatchObject({
      request_id: 'req-2',
      status: 500,
      duration_ms: 12,
      output: [{ stream: 'stdout', line: 'hello from greet' }],
      output_dropped: 0,
      created_date: '2026-11-20T09:59:30.000Z',
    });
    const one = await logs.fetchFunctionLogs(
      APP,
      FetchLogsQuerySchema.parse({ request_id: 'req-1', limit: '1' }),
    );
    expect(one.items.map((item) => item.function)).toEqual(['greet']);
    const pages = await logs.fetchLogs(APP, FetchLogsQuerySchema.parse({}));
    expect(pages.items.map((item) => item.page)).toEqual(['Home']);
    await logs.close();
  });

  it('deletes calls older than the retention period', async () => {
    const logs = service();
    logs.recordFunctionCall(APP, call('old', '2026-09-01T00:00:00.000Z'));
    await logs.flush();
    expect(await logs.pruneExpired()).toBeGreaterThanOrEqual(1);
    const left = await logs.fetchFunctionLogs(APP, FetchLogsQuerySchema.parse({ function: 'old' }));
    expect(left.items).toEqual([]);
    await logs.close();
  });
});
