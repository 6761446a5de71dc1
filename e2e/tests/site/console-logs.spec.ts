import type { Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../../support/test';
import { api, createUser, PASSWORD, SERVICE_TOKEN, uniqueEmail } from '../../support/auth-helpers';
import { axeViolations } from '../../support/axe';
import { consoleScreenshot } from '../../support/console-screenshot';
import { FUNCTIONS_ENV } from '../../support/functions-project';
import { DEFAULT_APP_ID } from '../../support/sdk-client';
import { removeServerData, startServer, type RunningServer } from '../../support/server-process';

// The console's Logs page (issue 24) on a real server with real Deno functions: a call made while the page
// is open appears without a reload (the live stream) and opens to its redacted output; filters live in the
// URL, so a reload shows the same filtered view; the page views and audit log tabs show rows; a plain user
// gets "Admins only" and every new endpoint refuses them.

test.describe.configure({ mode: 'serial' });

const SECRET = `sk-console-${randomBytes(12).toString('hex')}`;
const APP = `/api/apps/${DEFAULT_APP_ID}`;
let server: RunningServer;
let dataDir: string;
const admin = { email: '', token: '' };
const member = { email: '', token: '', id: '' };

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dataDir = await mkdtemp(join(tmpdir(), 'queen-console-logs-'));
  server = await startServer({ dataDir, keepData: true, env: { ...FUNCTIONS_ENV, APP_LOG_FLUSH_MS: '200' } });
  // Audited: the audit tab has this row.
  const set = await api(server, `${APP}/admin/secrets/FN_LOG_SECRET`, {
    method: 'PUT',
    body: { value: SECRET },
    token: SERVICE_TOKEN,
  });
  expect(set.status).toBe(200);
  admin.email = uniqueEmail('logs-admin');
  admin.token = (await createUser(server, { email: admin.email, role: 'admin' })).token;
  member.email = uniqueEmail('logs-member');
  const made = await createUser(server, { email: member.email });
  member.token = made.token;
  member.id = made.user.id;
});

test.afterAll(async () => {
  await server.stop();
  await removeServerData({ dataDir, ...(server.databaseUrl ? { databaseUrl: server.databaseUrl } : {}) });
});

/** invoke calls a function as the admin (or with token; null: anonymously) and answers its request id. */
async function invoke(name: string, body: object = {}, token: string | null = admin.token): Promise<string> {
  const response = await fetch(`${server.url}${APP}/functions/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  await response.text();
  return response.headers.get('x-request-id') ?? '';
}

async function openLogs(page: Page, search = '', email = admin.email, width = 1440) {
  await page.setViewportSize({ width, height: width > 500 ? 900 : 844 });
  await page.goto(`${server.url}/_/logs${search}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test('every logs endpoint refuses a plain user (403) and no token (401), and bad input with 400', async () => {
  for (const path of ['functions', 'functions/1', 'page-views', 'audit', 'live']) {
    const url = `${APP}/admin/logs/${path}`;
    expect((await api(server, url, { method: 'GET', token: member.token })).status, path).toBe(403);
    expect((await api(server, url, { method: 'GET' })).status, path).toBe(401);
  }
  for (const query of ['limit=0', 'limit=1000', 'before=nope', 'status=teapot', 'from=yesterday']) {
    const answer = await api(server, `${APP}/admin/logs/functions?${query}`, {
      method: 'GET',
      token: admin.token,
    });
    expect(answer.status, query).toBe(400);
  }
  const missing = await api(server, `${APP}/admin/logs/functions/999999999`, {
    method: 'GET',
    token: admin.token,
  });
  expect(missing.status).toBe(404);
});

test('a call made while the page is open appears live and opens to its redacted output', async ({ page }) => {
  test.setTimeout(90_000);
  await openLogs(page);
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { name: 'Logs', level: 1 })).toBeVisible();
  await expect(main.getByRole('status').filter({ hasText: 'Following new entries live.' })).toBeVisible();
  const requestId = await invoke('chatty', { secret: 'FN_LOG_SECRET' });
  const row = main.getByRole('row').filter({ hasText: requestId });
  // No reload: the row comes through the live stream.
  await expect(row).toBeVisible({ timeout: 15_000 });
  await expect(row.getByRole('cell', { name: 'chatty', exact: true })).toBeVisible();
  expect(await axeViolations(page), 'logs at 1440').toEqual([]);
  await consoleScreenshot(page, 'logs');
  // By keyboard: Enter opens the output, Escape closes it and gives focus back to its button.
  const opener = row.getByRole('button', { name: /^Output of chatty/ });
  await opener.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'chatty: status 200' });
  const output = dialog.getByLabel('Output');
  await expect(output).toContainText('chatty says hello');
  await expect(output).toContainText('the secret is [redacted secret FN_LOG_SECRET]');
  await expect(output).not.toContainText(SECRET);
  await expect(output).not.toContainText(admin.token);
  expect(await axeViolations(page), 'output dialog').toEqual([]);
  await consoleScreenshot(page, 'logs-output');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
});

test('filters go to the URL, and the permalink reloads to the same filtered view', async ({ page }) => {
  test.setTimeout(90_000);
  const hello = await invoke('hello');
  const failed = await invoke('chatty', { fail: true });
  await expect
    .poll(async () => {
      const answer = await api(server, `${APP}/admin/logs/functions?request_id=${failed}`, {
        method: 'GET',
        token: admin.token,
      });
      return (answer.json.items as unknown[] | undefined)?.length;
    })
    .toBe(1);
  await openLogs(page);
  const main = page.getByRole('main');
  await expect(main.getByRole('row').filter({ hasText: hello })).toBeVisible();
  const filters = main.getByRole('search', { name: 'Filter the logs' });
  // Typed into the field, and Enter there applies the filters (the status picked in its list).
  await filters.getByLabel('Function').focus();
  await page.keyboard.type('chatty');
  await filters.getByLabel('Status').selectOption('error');
  await filters.getByLabel('Function').focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/function=chatty/);
  await expect(page).toHaveURL(/status=error/);
  await expect(main.getByRole('row').filter({ hasText: failed })).toBeVisible();
  await expect(main.getByRole('row').filter({ hasText: hello })).toHaveCount(0);
  await expect(main.getByRole('row')).toHaveCount(2);
  await page.reload();
  await expect(main.getByRole('row').filter({ hasText: failed })).toBeVisible();
  await expect(main.getByRole('row')).toHaveCount(2);
  await expect(filters.getByLabel('Function')).toHaveValue('chatty');
  await expect(filters.getByLabel('Status')).toHaveValue('error');
  // The request id alone, as a link someone was sent.
  await page.goto(`${server.url}/_/logs?request_id=${encodeURIComponent(hello)}`);
  await expect(main.getByRole('row').filter({ hasText: hello })).toBeVisible();
  await expect(main.getByRole('row')).toHaveCount(2);
});

test('a call keeps its signed-in caller: the User column, and the User id filter as a permalink', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const mine = await invoke('hello', {}, member.token);
  const anonymous = await invoke('hello', {}, null);
  await expect
    .poll(async () => {
      const answer = await api(server, `${APP}/admin/logs/functions?user=${member.id}`, {
        method: 'GET',
        token: admin.token,
      });
      return (answer.json.items as { request_id: string }[] | undefined)?.map((item) => item.request_id);
    })
    .toEqual([mine]);
  await openLogs(page, `?user=${encodeURIComponent(member.id)}`);
  const main = page.getByRole('main');
  const filters = main.getByRole('search', { name: 'Filter the logs' });
  await expect(filters.getByLabel('User id')).toHaveValue(member.id);
  const row = main.getByRole('row').filter({ hasText: mine });
  await expect(row.getByRole('cell', { name: member.id, exact: true })).toBeVisible();
  await expect(main.getByRole('row')).toHaveCount(2);
  await page.goto(`${server.url}/_/logs?request_id=${encodeURIComponent(anonymous)}`);
  const anonymousRow = main.getByRole('row').filter({ hasText: anonymous });
  await expect(anonymousRow.getByRole('cell', { name: 'anonymous', exact: true })).toBeVisible();
});

/** view logs a page view of pageName as the admin. */
async function view(pageName: string) {
  const viewed = await fetch(`${server.url}/api/app-logs/${DEFAULT_APP_ID}/log-user-in-app/${pageName}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin.token}` },
  });
  expect(viewed.status).toBe(204);
}

test('the page views and audit log tabs show rows, filtered by page and user, and new ones live; 390 px', async ({
  page,
}) => {
  await view('LogsHome');
  await view('LogsAway');
  await expect
    .poll(async () => {
      const answer = await api(server, `${APP}/admin/logs/page-views?page=LogsAway`, {
        method: 'GET',
        token: admin.token,
      });
      return (answer.json.items as unknown[] | undefined)?.length;
    })
    .toBe(1);
  await openLogs(page, '?tab=page-views&page=LogsHome');
  const main = page.getByRole('main');
  await expect(main.getByRole('link', { name: 'Page views' })).toHaveAttribute('aria-current', 'page');
  await expect(main.getByRole('cell', { name: 'LogsHome', exact: true })).toBeVisible();
  await expect(main.getByRole('cell', { name: 'LogsAway', exact: true })).toHaveCount(0);
  // Live, and filtered as the page is: a second view of LogsHome comes in, a view of another page does not.
  await expect(main.getByRole('status').filter({ hasText: 'Following new entries live.' })).toBeVisible();
  await view('LogsAway');
  await view('LogsHome');
  await expect(main.getByRole('cell', { name: 'LogsHome', exact: true })).toHaveCount(2, { timeout: 15_000 });
  await expect(main.getByRole('cell', { name: 'LogsAway', exact: true })).toHaveCount(0);
  await main.getByRole('link', { name: 'Audit log' }).click();
  await expect(page).toHaveURL(/tab=audit/);
  await expect(main.getByRole('cell', { name: 'secret:FN_LOG_SECRET' })).toBeVisible();
  // A change made meanwhile appears without a reload.
  await expect(main.getByRole('status').filter({ hasText: 'Following new entries live.' })).toBeVisible();
  const set = await api(server, `${APP}/admin/secrets/LIVE_AUDIT_SECRET`, {
    method: 'PUT',
    body: { value: 'live-audit-value' },
    token: admin.token,
  });
  expect(set.status).toBe(200);
  await expect(main.getByRole('cell', { name: 'secret:LIVE_AUDIT_SECRET' })).toBeVisible({ timeout: 15_000 });
  await expect(main).not.toContainText('live-audit-value');
  const filters = main.getByRole('search', { name: 'Filter the logs' });
  await filters.getByLabel('User (id or email)').fill('nobody@example.test');
  await filters.getByRole('button', { name: 'Apply filters' }).click();
  await expect(main.getByText('No entries match these filters.')).toBeVisible();
  // 390 px: the table scrolls inside its own box, the page does not.
  await page.goto(`${server.url}/_/logs?tab=functions`);
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(main.getByRole('cell', { name: 'chatty', exact: true }).first()).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(await axeViolations(page), 'logs at 390').toEqual([]);
});

test("a deep link's first entries are asked for beside the session check, not after it", async ({ page }) => {
  await page.addInitScript(
    (token) => sessionStorage.setItem('queen-console.access-token', token),
    admin.token,
  );
  // The session check is held until the first page of calls has been asked for: without the prefetch the
  // page would only ask after the check, and the check would never be answered.
  let asked!: () => void;
  const firstPageAsked = new Promise<void>((resolve) => (asked = resolve));
  await page.route('**/admin/logs/functions?*', async (route) => {
    asked();
    await route.continue();
  });
  await page.route('**/entities/User/me', async (route) => {
    await Promise.race([
      firstPageAsked,
      new Promise((_, reject) => setTimeout(() => reject(new Error('the calls were not asked for')), 10_000)),
    ]);
    await route.continue();
  });
  await page.goto(`${server.url}/_/logs?tab=functions&function=chatty`);
  await expect(
    page.getByRole('main').getByRole('cell', { name: 'chatty', exact: true }).first(),
  ).toBeVisible();
});

test('a user who is not an admin gets "Admins only"', async ({ page }) => {
  await openLogs(page, '', member.email);
  await expect(page.getByRole('heading', { name: 'Admins only' })).toBeVisible();
});
