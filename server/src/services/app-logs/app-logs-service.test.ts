// The page-log service on a real embedded database: views wait in memory and land in one batch, the IP
// never reaches a row, reads see this instance's views at once, and retention deletes old views (and old audit and mail records).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TooManyRequestsError } from '../../lib/errors';
import { createAppLogsStore } from '../../store/app-logs-store';
import { createAuditLogStore } from '../../store/audit-log-store';
import { createAppsStore } from '../../store/apps-store';
import { createMailLogStore } from '../../store/mail-log-store';
import type { Database } from '../../store/database';
import { createRateLimiter } from '../limits/rate-limiter';
import { createAuditLog } from '../audit/audit-log';
import { createAppLogsService, type AppLogsDeps } from './app-logs-service';
import { openTestDatabase, type TestDatabase } from '../../test-support/open-test-database';

const APP = 'logs-app';
const IP = '203.0.113.77';
let opened: TestDatabase | undefined;
let db: Database;
let clock = new Date('2026-11-20T10:00:00.000Z');
const logged: string[] = [];

function service(overrides: Partial<AppLogsDeps> = {}) {
  return createAppLogsService({
    store: createAppLogsStore(db),
    limiter: createRateLimiter(),
    visitorSecret: 'test-secret',
    retentionDays: 90,
    ratePerMinute: 1000,
    flushMs: 60_000,
    bufferMax: 1000,
    log: { warn: (_details, message) => logged.push(message), error: (_d, message) => logged.push(message) },
    now: () => clock,
    ...overrides,
  });
}

const view = (page: string, extra: { ip?: string; userAgent?: string; userId?: string } = {}) => ({
  page,
  userId: extra.userId ?? null,
  referrer: 'https://app.example/Home?access_token=secret#x',
  ip: extra.ip ?? IP,
  userAgent: extra.userAgent ?? 'Mozilla/5.0 test',
});

async function rowCount(): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM app_page_views');
  return Number(rows[0]?.n);
}

beforeAll(async () => {
  opened = await openTestDatabase({ engine: 'pglite' });
  db = opened.db;
  await createAppsStore(db).ensure(APP);
});

afterAll(async () => {
  await opened?.close();
});

describe('app logs service', () => {
  it('answers record() without touching the database, then writes the batch in one go', async () => {
    await db.query('DELETE FROM app_page_views');
    const logs = service();
    for (let n = 0; n < 25; n += 1) expect(logs.record(APP, view(`Page${n % 3}`))).toBe(true);
    expect(await rowCount()).toBe(0);
    expect(logs.counts()).toMatchObject({ buffered: 25, written: 0 });
    await logs.close();
    expect(await rowCount()).toBe(25);
    expect(logs.counts()).toMatchObject({ buffered: 0, written: 25 });
  });

  it('stores a visitor key, never the IP or user agent, and only origin and path of the referrer', async () => {
    await db.query('DELETE FROM app_page_views');
    const logs = service();
    logs.record(APP, view('Home', { userId: 'u1' }));
    await logs.close();
    const { rows } = await db.query<Record<string, unknown>>('SELECT * FROM app_page_views');
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(IP);
    expect(stored).not.toContain('Mozilla');
    expect(stored).not.toContain('secret');
    expect(rows[0]).toMatchObject({ page: 'Home', user_id: 'u1', referrer: 'https://app.example/Home' });
    expect(rows[0]?.visitor_key).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('gives one visitor one key a day, another visitor another, and a new key the next day', async () => {
    await db.query('DELETE FROM app_page_views');
    const logs = service();
    logs.record(APP, view('A'));
    logs.record(APP, view('A'));
    logs.record(APP, view('A', { ip: '198.51.100.1' }));
    logs.record(APP, view('A', { userAgent: 'other browser' }));
    clock = new Date('2026-11-21T10:00:00.000Z');
    logs.record(APP, view('A'));
    await logs.close();
    const { rows } = await db.query<{ visitor_key: string }>(
      'SELECT visitor_key FROM app_page_views ORDER BY id',
    );
    const keys = rows.map((row) => row.visitor_key);
    expect(keys[0]).toBe(keys[1]);
    expect(new Set(keys).size).toBe(4);
    clock = new Date('2026-11-20T10:00:00.000Z');
  });

  it('reads its own buffered views at once: fetchLogs filters and pages, stats counts per page and day', async () => {
    await db.query('DELETE FROM app_page_views');
    const logs = service();
    logs.record(APP, view('Home', { userId: 'u1' }));
    logs.record(APP, view('Home', { ip: '198.51.100.2' }));
    clock = new Date('2026-11-20T11:00:00.000Z');
    logs.record(APP, view('About', { userId: 'u1' }));
    const page = await logs.fetchLogs(APP, { limit: 2, skip: 0 });
    expect(page.items.map((item) => item.page)).toEqual(['About', 'Home']);
    expect(page.has_more).toBe(true);
    expect((await logs.fetchLogs(APP, { limit: 2, skip: 2 })).has_more).toBe(false);
    expect((await logs.fetchLogs(APP, { limit: 10, skip: 0, user_id: 'u1' })).items).toHaveLength(2);
    expect((await logs.fetchLogs(APP, { limit: 10, skip: 0, page: 'Home' })).items).toHaveLength(2);
    const later = await logs.fetchLogs(APP, { limit: 10, skip: 0, from: '2026-11-20T10:30:00Z' });
    expect(later.items.map((item) => item.page)).toEqual(['About']);
    const stats = await logs.stats(APP, {});
    expect(stats).toMatchObject({
      views: 3,
      visitors: 2,
      pages: [
        { page: 'Home', views: 2, visitors: 2 },
        { page: 'About', views: 1, visitors: 1 },
      ],
      days: [{ day: '2026-11-20', views: 3, visitors: 2 }],
    });
    await expect(logs.stats(APP, { from: '2020-01-01', to: '2026-01-01' })).rejects.toThrow('366 days');
    await logs.close();
  });

  it('deletes views older than the retention period and keeps the rest', async () => {
    await db.query('DELETE FROM app_page_views');
    const logs = service({ retentionDays: 30 });
    clock = new Date('2026-09-01T00:00:00.000Z');
    logs.record(APP, view('Old'));
    clock = new Date('2026-11-19T00:00:00.000Z');
    logs.record(APP, view('Recent'));
    await logs.flush();
    clock = new Date('2026-11-20T10:00:00.000Z');
    expect(await logs.pruneExpired()).toBe(1);
    const { rows } = await db.query<{ page: string }>('SELECT page FROM app_page_views');
    expect(rows).toEqual([{ page: 'Recent' }]);
    await logs.close();
  });

  it('deletes mail records older than the retention period with the other logs', async () => {
    await db.query('DELETE FROM mail_log');
    await db.query(
      `INSERT INTO mail_log (app_id, ok, transport, sent_at) VALUES
         ($1, true, 'outbox', '2026-09-01T00:00:00Z'), ($1, false, 'smtp', '2026-11-19T00:00:00Z')`,
      [APP],
    );
    const logs = service({ retentionDays: 30, mailLog: createMailLogStore(db) });
    expect(await logs.pruneExpired()).toBe(1);
    const { rows } = await db.query<{ transport: string }>('SELECT transport FROM mail_log');
    expect(rows).toEqual([{ transport: 'smtp' }]);
    await logs.close();
  });

  it('deletes audit-log rows older than the retention period with the other logs', async () => {
    await db.query('DELETE FROM app_audit_log');
    const audit = createAuditLog(createAuditLogStore(db));
    await audit.record(APP, { kind: 'cli' }, { action: 'secret.set', target: 'secret:OLD' });
    await audit.record(APP, { kind: 'cli' }, { action: 'secret.set', target: 'secret:RECENT' });
    await db.query(`UPDATE app_audit_log SET logged_at = '2026-09-01T00:00:00Z' WHERE target = 'secret:OLD'`);
    await db.query(
      `UPDATE app_audit_log SET logged_at = '2026-11-19T00:00:00Z' WHERE target = 'secret:RECENT'`,
    );
    const logs = service({ retentionDays: 30, audit });
    expect(await logs.pruneExpired()).toBe(1);
    expect((await audit.list(APP, { limit: 10 })).map((entry) => entry.target)).toEqual(['secret:RECENT']);
    await logs.close();
  });

  it('prunes on its own once started, off the request path', async () => {
    await db.query('DELETE FROM app_page_views');
    const logs = service({ retentionDays: 30, pruneFirstMs: 10 });
    clock = new Date('2026-09-01T00:00:00.000Z');
    logs.record(APP, view('Old'));
    await logs.flush();
    clock = new Date('2026-11-20T10:00:00.000Z');
    logs.startPruning();
    await expect.poll(rowCount, { timeout: 5000 }).toBe(0);
    await logs.close();
  });

  it('limits page views per IP', async () => {
    const logs = service({ ratePerMinute: 2 });
    await logs.admit('192.0.2.9');
    await logs.admit('192.0.2.9');
    await expect(logs.admit('192.0.2.9')).rejects.toBeInstanceOf(TooManyRequestsError);
    await logs.admit('192.0.2.10');
    await logs.close();
  });
});
