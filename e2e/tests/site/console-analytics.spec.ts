import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from '../../support/test';
import { api, AUTH_ENV, createUser, PASSWORD, SERVICE_TOKEN, uniqueEmail } from '../../support/auth-helpers';
import { axeViolations } from '../../support/axe';
import { consoleScreenshot } from '../../support/console-screenshot';
import { startOpenAiDouble, type OpenAiDouble } from '../../support/openai-double';
import { DEFAULT_APP_ID } from '../../support/sdk-client';
import { withServerDatabase } from '../../support/postgres';
import { removeServerData, startServer, type RunningServer } from '../../support/server-process';

// The console's Analytics page (issue 24): page views and visitors per day, top pages and referrer hosts,
// the SDK's events, LLM tokens per model against the budget and mails sent, each for 7, 30 or 90 days. A
// server of its own, so every number on the page must equal what this test itself sent through the real
// endpoints (page-view beacons, analytics batches, InvokeLLM against the LLM double, a test mail), and
// the LLM and mail counts equal what the server's own records (llm-usage, the outbox folder) say; last, with
// the server stopped, every number equals a count taken from its database.

let server: RunningServer;
let double: OpenAiDouble;
const admin = { email: '', token: '' };
const member = { email: '', token: '' };
const ANALYTICS = `/api/apps/${DEFAULT_APP_ID}/admin/analytics`;
const TODAY = new Date().toISOString().slice(0, 10);

// Sent below: 6 views of 2 pages from 2 browsers (user agents), 5 with a referrer of 2 hosts.
const VIEWS = [
  { page: 'home', referrer: 'https://News.Example.com/story/1?utm=x', agent: 'browser-a' },
  { page: 'home', referrer: 'https://news.example.com/other', agent: 'browser-a' },
  { page: 'home', referrer: 'https://user:secret@news.example.com/', agent: 'browser-b' },
  { page: 'home', referrer: undefined, agent: 'browser-b' },
  { page: 'about', referrer: 'http://blog.example.org:8080/post?id=2', agent: 'browser-a' },
  { page: 'about', referrer: 'http://blog.example.org/', agent: 'browser-a' },
];
const EVENTS = [
  ...Array.from({ length: 3 }, () => ({ event_name: 'signup_clicked' })),
  ...Array.from({ length: 2 }, () => ({ event_name: 'buy_clicked' })),
];

interface Analytics {
  views: { day: string; views: number; visitors: number }[];
  topPages: { key: string; count: number }[];
  topReferrers: { key: string; count: number }[];
  events: { names: string[]; days: { day: string; total: number; byName: Record<string, number> }[] };
  tokens: {
    names: string[];
    dailyBudget: number;
    days: { day: string; total: number; byName: Record<string, number> }[];
  };
  mails: { day: string; count: number }[];
}

async function analytics(days: number): Promise<Analytics> {
  const answer = await api(server, `${ANALYTICS}?days=${days}`, { method: 'GET', token: admin.token });
  expect(answer.status).toBe(200);
  return answer.json as unknown as Analytics;
}

test.beforeAll(async () => {
  double = await startOpenAiDouble();
  // Its data kept past stop: the last test counts the rows in its database.
  server = await startServer({
    env: { ...AUTH_ENV, LLM_PROVIDER_URL: double.baseUrl, LLM_DAILY_TOKEN_BUDGET: '50000' },
    keepData: true,
  });
  admin.email = uniqueEmail('analytics-admin');
  admin.token = (await createUser(server, { email: admin.email, role: 'admin' })).token;
  member.email = uniqueEmail('analytics-member');
  member.token = (await createUser(server, { email: member.email })).token;

  for (const view of VIEWS) {
    const headers: Record<string, string> = { 'user-agent': view.agent };
    if (view.referrer) headers.referer = view.referrer;
    const sent = await fetch(`${server.url}/api/app-logs/${DEFAULT_APP_ID}/log-user-in-app/${view.page}`, {
      method: 'POST',
      headers,
    });
    expect(sent.status).toBe(204);
  }
  const tracked = await api(server, `/api/apps/${DEFAULT_APP_ID}/analytics/track/batch`, {
    body: { events: EVENTS },
    token: member.token,
  });
  expect(tracked.status).toBe(204);
  for (const prompt of ['one', 'two']) {
    const answer = await api(server, `/api/apps/${DEFAULT_APP_ID}/integration-endpoints/Core/InvokeLLM`, {
      body: { prompt },
      token: admin.token,
    });
    expect(answer.status).toBe(200);
  }
  expect(
    (await api(server, `/api/apps/${DEFAULT_APP_ID}/admin/mail/test`, { token: admin.token })).status,
  ).toBe(200);
  // Page views and LLM usage are written in batches: wait until both are in.
  await expect
    .poll(async () => {
      const read = await analytics(7);
      return [read.views.at(-1)?.views, (read.tokens.days.at(-1)?.total ?? 0) > 0];
    })
    .toEqual([VIEWS.length, true]);
});

test.afterAll(async () => {
  expect(await server.stop()).toBe(0);
  await removeServerData(server);
  await double.close();
});

async function signIn(page: Page, email: string, width = 1440) {
  await page.setViewportSize({ width, height: width > 500 ? 900 : 844 });
  await page.goto(`${server.url}/_/analytics`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test('the numbers equal what was sent: views, visitors, pages, referrer hosts, events, tokens, mails', async () => {
  const read = await analytics(30);
  expect(read.views).toHaveLength(30);
  expect(read.views.at(-1)).toEqual({ day: TODAY, views: 6, visitors: 2 });
  expect(read.views.slice(0, -1).every((day) => day.views === 0 && day.visitors === 0)).toBe(true);
  expect(read.topPages).toEqual([
    { key: 'home', count: 4 },
    { key: 'about', count: 2 },
  ]);
  // Hosts only: no path, query, port or credentials.
  expect(read.topReferrers).toEqual([
    { key: 'news.example.com', count: 3 },
    { key: 'blog.example.org', count: 2 },
  ]);
  expect(read.events.names).toEqual(['buy_clicked', 'signup_clicked']);
  expect(read.events.days.at(-1)).toEqual({
    day: TODAY,
    total: 5,
    byName: { buy_clicked: 2, signup_clicked: 3 },
  });

  // Tokens per model equal the server's own per-call records.
  const usage = await api(server, `/api/apps/${DEFAULT_APP_ID}/admin/llm-usage`, {
    method: 'GET',
    token: SERVICE_TOKEN,
  });
  const calls = usage.json.items as { model: string; prompt_tokens: number; completion_tokens: number }[];
  expect(calls).toHaveLength(2);
  const byModel: Record<string, number> = {};
  for (const call of calls)
    byModel[call.model] = (byModel[call.model] ?? 0) + call.prompt_tokens + call.completion_tokens;
  const total = Object.values(byModel).reduce((sum, n) => sum + n, 0);
  expect(total).toBeGreaterThan(0);
  expect(read.tokens.days.at(-1)).toEqual({ day: TODAY, total, byName: byModel });
  expect(read.tokens.dailyBudget).toBe(50000);

  // Mails: as many as the outbox folder holds (the test mail).
  const outbox = (await readdir(join(server.dataDir, 'outbox'))).filter((name) => name.endsWith('.eml'));
  expect(outbox).toHaveLength(1);
  expect(read.mails.at(-1)).toEqual({ day: TODAY, count: outbox.length });

  expect((await analytics(7)).views).toHaveLength(7);
  expect((await analytics(90)).views).toHaveLength(90);
});

test('the endpoint refuses other periods (400), a plain user (403) and no token (401)', async () => {
  for (const query of ['?days=5', '?days=abc', '?days=90&days=7']) {
    expect(
      (await api(server, `${ANALYTICS}${query}`, { method: 'GET', token: admin.token })).status,
      query,
    ).toBe(400);
  }
  expect((await api(server, ANALYTICS, { method: 'GET', token: member.token })).status).toBe(403);
  expect((await api(server, ANALYTICS, { method: 'GET' })).status).toBe(401);
});

test('a user who is not an admin gets "Admins only" on the Analytics page', async ({ page }) => {
  await signIn(page, member.email);
  await expect(page.getByRole('heading', { name: 'Admins only' })).toBeVisible();
});

test('an admin reads the charts and their tables, switches periods, at 1440 and 390 px, with no axe violation', async ({
  page,
}) => {
  await signIn(page, admin.email);
  await expect(page.getByRole('heading', { name: 'Analytics', level: 1 })).toBeVisible();
  const views = page.getByRole('region', { name: 'Page views and visitors' });
  // The table is there for screen readers before it is shown.
  const todayRow = views.getByRole('row').filter({ has: page.getByRole('rowheader', { name: TODAY }) });
  await expect(todayRow.getByRole('cell')).toHaveText(['6', '2']);
  await views.getByRole('button', { name: 'Show table' }).click();
  await expect(views.getByRole('table')).toBeVisible();
  await expect(views.getByRole('table').getByRole('row')).toHaveCount(31);

  await expect(page.getByRole('region', { name: 'Top pages' }).getByRole('row')).toHaveText([
    'PageViews',
    'home4',
    'about2',
  ]);
  await expect(page.getByRole('region', { name: 'Top referrers' }).getByRole('row')).toHaveText([
    'HostViews',
    'news.example.com3',
    'blog.example.org2',
  ]);
  const events = page.getByRole('region', { name: 'Analytics events' });
  await expect(events.getByRole('columnheader')).toHaveText(['Day', 'signup_clicked', 'buy_clicked']);
  await expect(
    events
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: TODAY }) })
      .getByRole('cell'),
  ).toHaveText(['3', '2']);
  // Tokens per model against the budget, as the endpoint counts them, with each day's share of it.
  const read = await analytics(30);
  const tokensToday = read.tokens.days.at(-1);
  const tokens = page.getByRole('region', { name: 'LLM tokens' });
  await expect(tokens).toContainText('against the daily budget of 50000 tokens');
  await expect(
    tokens
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: TODAY }) })
      .getByRole('cell'),
  ).toHaveText([
    ...read.tokens.names.map((name) => String(tokensToday?.byName[name] ?? 0)),
    `${(((tokensToday?.total ?? 0) / 50000) * 100).toFixed(1)} %`,
  ]);
  const mails = page.getByRole('region', { name: 'Mails sent' });
  await expect(
    mails
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: TODAY }) })
      .getByRole('cell'),
  ).toHaveText(['1']);
  expect(await axeViolations(page)).toEqual([]);
  await views.getByRole('button', { name: 'Hide table' }).click();
  await consoleScreenshot(page, 'analytics');
  await views.getByRole('button', { name: 'Show table' }).click();

  // The period by keyboard: Space on one button, Tab to the next and Enter.
  await page.getByRole('button', { name: '7 days' }).focus();
  await page.keyboard.press('Space');
  await expect(page.getByRole('button', { name: '7 days' })).toHaveAttribute('aria-pressed', 'true');
  await expect(views.getByRole('table').getByRole('row')).toHaveCount(8);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: '90 days' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: '90 days' })).toHaveAttribute('aria-pressed', 'true');
  await expect(views.getByRole('table').getByRole('row')).toHaveCount(91);

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('heading', { name: 'Analytics', level: 1 })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  expect(await axeViolations(page)).toEqual([]);
});

test('the numbers equal counts taken from the database once the server has stopped', async () => {
  const read = await analytics(30);
  expect(await server.stop()).toBe(0);
  const counted = await withServerDatabase(server, async (query) => {
    const app = [DEFAULT_APP_ID];
    const [views] = await query<{ views: number; visitors: number }>(
      `SELECT count(*)::int AS views, count(DISTINCT visitor_key)::int AS visitors FROM app_page_views
       WHERE app_id = $1 AND (viewed_at AT TIME ZONE 'UTC')::date = $2::date`,
      [...app, TODAY],
    );
    const pages = await query<{ key: string; count: number }>(
      `SELECT page AS key, count(*)::int AS count FROM app_page_views WHERE app_id = $1
       GROUP BY page ORDER BY count DESC, page`,
      app,
    );
    const referrers = await query<{ referrer: string }>(
      'SELECT referrer FROM app_page_views WHERE app_id = $1 AND referrer IS NOT NULL',
      app,
    );
    const events = await query<{ event_name: string; count: number }>(
      'SELECT event_name, count(*)::int AS count FROM analytics_events WHERE app_id = $1 GROUP BY event_name',
      app,
    );
    const tokens = await query<{ model: string; tokens: number }>(
      `SELECT model, sum(prompt_tokens + completion_tokens)::int AS tokens FROM llm_usage WHERE app_id = $1
       GROUP BY model`,
      app,
    );
    const [mails] = await query<{ count: number }>(
      'SELECT count(*)::int AS count FROM mail_log WHERE app_id = $1 AND ok',
      app,
    );
    return { views, pages, referrers, events, tokens, mails };
  });
  expect(read.views.at(-1)).toEqual({ day: TODAY, ...counted.views });
  expect(read.topPages).toEqual(counted.pages);
  const hosts: Record<string, number> = {};
  for (const { referrer } of counted.referrers) {
    const host = new URL(referrer).hostname.toLowerCase();
    hosts[host] = (hosts[host] ?? 0) + 1;
  }
  expect(Object.fromEntries(read.topReferrers.map(({ key, count }) => [key, count]))).toEqual(hosts);
  expect(read.events.days.at(-1)?.byName).toEqual(
    Object.fromEntries(counted.events.map(({ event_name, count }) => [event_name, count])),
  );
  expect(read.tokens.days.at(-1)?.byName).toEqual(
    Object.fromEntries(counted.tokens.map(({ model, tokens }) => [model, tokens])),
  );
  expect(read.mails.at(-1)?.count).toBe(counted.mails?.count);
});
