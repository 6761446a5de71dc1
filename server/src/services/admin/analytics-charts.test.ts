// The Analytics page's aggregates on PGlite and (with DATABASE_URL, as CI sets it) PostgreSQL: per UTC day
// (a view at 23:59 UTC and one at 00:00 fall on two days), other apps and days outside the window left out,
// referrers reduced to their host, empty days filled with zeros, and mails counted only when sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_ENGINES, type TestDatabase } from '../../test-support/open-test-database';
import { createAnalyticsChartsStore } from '../../store/analytics-charts-store';
import { createMailLogStore } from '../../store/mail-log-store';
import { createAppLogsStore } from '../../store/app-logs-store';
import { createAnalyticsCharts, dayKeys } from './analytics-charts';

const NOW = new Date('2026-03-10T12:00:00Z');

describe.each(TEST_ENGINES)('analytics charts on %s', (name) => {
  let engine: TestDatabase;

  beforeAll(async () => {
    engine = await openTestDatabase({ engine: name, name: 'analytics_charts' });
    await engine.db.query('INSERT INTO apps (id) VALUES ($1), ($2)', ['a1', 'a2']);
    const view = (app: string, page: string, referrer: string | null, visitor: string, at: string) =>
      engine.db.query(
        `INSERT INTO app_page_views (app_id, page, referrer, visitor_key, viewed_at) VALUES ($1, $2, $3, $4, $5)`,
        [app, page, referrer, visitor, at],
      );
    await view('a1', 'home', 'https://News.example.com:443/a?b=c', 'v1', '2026-03-09T23:59:59Z');
    await view('a1', 'home', 'https://u:p@news.example.com/', 'v2', '2026-03-10T00:00:00Z');
    await view('a1', 'home', null, 'v2', '2026-03-10T08:00:00Z');
    await view('a1', 'about', 'not a url', 'v3', '2026-03-10T09:00:00Z');
    await view('a1', 'old', 'https://old.example/', 'v9', '2026-03-03T23:59:59Z'); // before a 7-day window
    await view('a2', 'home', 'https://other.example/', 'v1', '2026-03-10T09:00:00Z');
    await engine.db.query(
      `INSERT INTO analytics_events (app_id, event_name, received_at) VALUES
         ('a1', 'buy', '2026-03-10T01:00:00Z'), ('a1', 'buy', '2026-03-10T02:00:00Z'),
         ('a1', 'open', '2026-03-08T02:00:00Z'), ('a2', 'buy', '2026-03-10T02:00:00Z')`,
    );
    await engine.db.query(
      `INSERT INTO llm_usage (app_id, integration, model, caller_kind, prompt_tokens, completion_tokens, created_at)
       VALUES ('a1', 'InvokeLLM', 'm1', 'user', 10, 5, '2026-03-10T01:00:00Z'),
              ('a1', 'InvokeLLM', 'm2', 'user', 1, 1, '2026-03-10T01:00:00Z'),
              ('a1', 'InvokeLLM', 'm1', 'user', 100, 0, '2026-03-09T01:00:00Z')`,
    );
    const mails = createMailLogStore(engine.db);
    await mails.insert({ app_id: 'a1', ok: true, transport: 'outbox', error: null });
    await mails.insert({ app_id: 'a1', ok: false, transport: 'smtp', error: 'refused' });
  });
  afterAll(async () => engine.close());

  it('counts per UTC day within the window, per app, with hosts only and zeros for empty days', async () => {
    const charts = createAnalyticsCharts({
      store: createAnalyticsChartsStore(engine.db),
      dailyTokenBudget: 1000,
      now: () => NOW,
    });
    const read = await charts.read('a1', 7);
    expect(read.from).toBe('2026-03-04T00:00:00.000Z');
    expect(read.to).toBe('2026-03-11T00:00:00.000Z');
    expect(read.views.map((day) => day.day)).toEqual(dayKeys(new Date('2026-03-04T00:00:00Z'), 7));
    expect(read.views.at(-2)).toEqual({ day: '2026-03-09', views: 1, visitors: 1 });
    expect(read.views.at(-1)).toEqual({ day: '2026-03-10', views: 3, visitors: 2 });
    expect(read.views.slice(0, 5).every((day) => day.views === 0)).toBe(true);
    expect(read.topPages).toEqual([
      { key: 'home', count: 3 },
      { key: 'about', count: 1 },
    ]);
    expect(read.topReferrers).toEqual([{ key: 'news.example.com', count: 2 }]);
    expect(read.events.names).toEqual(['buy', 'open']);
    expect(read.events.days.at(-1)).toEqual({ day: '2026-03-10', total: 2, byName: { buy: 2 } });
    expect(read.events.days.at(-3)).toEqual({ day: '2026-03-08', total: 1, byName: { open: 1 } });
    expect(read.tokens.dailyBudget).toBe(1000);
    expect(read.tokens.days.at(-1)).toEqual({ day: '2026-03-10', total: 17, byName: { m1: 15, m2: 2 } });
    expect(read.tokens.days.at(-2)).toEqual({ day: '2026-03-09', total: 100, byName: { m1: 100 } });
    // Mails are logged at now(), outside this 2026 window: all zero; the live window counts the one sent.
    expect(read.mails.every((day) => day.count === 0)).toBe(true);
    const live = await createAnalyticsCharts({
      store: createAnalyticsChartsStore(engine.db),
      dailyTokenBudget: 1,
    }).read('a1', 90);
    expect(live.views).toHaveLength(90);
    expect(live.mails.reduce((sum, day) => sum + day.count, 0)).toBe(1);
    expect(live.mails.at(-1)?.count).toBe(1);
  });

  it('keeps the daily rollups by trigger: a key seen again that day is one visitor; prune drops old days', async () => {
    const store = createAppLogsStore(engine.db);
    const row = (visitor: string, at: string) => ({
      app_id: 'a2',
      page: 'later',
      user_id: null,
      referrer: 'https://Again.example/x',
      visitor_key: visitor,
      viewed_at: at,
    });
    await store.insertBatch([row('v1', '2026-03-10T10:00:00Z'), row('v7', '2026-03-10T10:00:00Z')]);
    await store.insertBatch([row('v7', '2026-03-10T11:00:00Z'), row('v7', '2026-03-01T11:00:00Z')]);
    const charts = createAnalyticsCharts({
      store: createAnalyticsChartsStore(engine.db),
      dailyTokenBudget: 1000,
      now: () => NOW,
    });
    const read = await charts.read('a2', 30);
    expect(read.views.at(-1)).toEqual({ day: '2026-03-10', views: 4, visitors: 2 });
    expect(read.views.find((day) => day.day === '2026-03-01')).toEqual({
      day: '2026-03-01',
      views: 1,
      visitors: 1,
    });
    expect(read.topReferrers).toEqual([
      { key: 'again.example', count: 4 },
      { key: 'other.example', count: 1 },
    ]);
    await store.pruneBefore('2026-03-05T00:00:00Z', 1000);
    await store.pruneRollupsBefore('2026-03-05T00:00:00Z');
    const pruned = await charts.read('a2', 30);
    expect(pruned.views.find((day) => day.day === '2026-03-01')?.views).toBe(0);
    expect(pruned.views.at(-1)?.views).toBe(4);
  });
});
