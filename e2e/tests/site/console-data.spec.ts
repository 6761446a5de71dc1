import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from '../../support/test';
import {
  api,
  createUser,
  PASSWORD,
  SERVICE_TOKEN,
  uniqueEmail,
  userClient,
} from '../../support/auth-helpers';
import { axeViolations } from '../../support/axe';
import { consoleScreenshot } from '../../support/console-screenshot';
import { entityOf, FIXTURE_PROJECT, startEntitiesServer } from '../../support/entities-helpers';
import { DEFAULT_APP_ID } from '../../support/sdk-client';
import type { RunningServer } from '../../support/server-process';

// The console's Data page (issue 23): entities with counts, the grid (paging, sort, quick search, filter
// errors inline), schema and rules, deep links and the back button, and "View as user" equal to what that
// user's own SDK list returns on an entity with row rules and a field only admins read.

// Owner-only rows (admins read all), and `cost` only admins read.
const LEDGER = {
  name: 'Ledger',
  type: 'object',
  properties: {
    title: { type: 'string' },
    cost: { type: 'number', rls: { read: { user_condition: { role: 'admin' } } } },
  },
  required: ['title'],
  rls: { read: { $or: [{ created_by: '{{user.email}}' }, { user_condition: { role: 'admin' } }] } },
};
// No rules and no seed: 60 records to page and sort.
const STOCK = {
  name: 'Stock',
  type: 'object',
  properties: { sku: { type: 'string' }, qty: { type: 'integer' } },
  required: ['sku'],
};

let server: RunningServer;
let projectDir = '';
const admin = { email: '', token: '' };
const alice = { email: '', token: '', id: '' };
const bob = { email: '', token: '', id: '' };
const ENTITIES = `/api/apps/${DEFAULT_APP_ID}/admin/entities`;

test.beforeAll(async () => {
  projectDir = await mkdtemp(join(tmpdir(), 'queen-console-data-'));
  await cp(FIXTURE_PROJECT, projectDir, { recursive: true });
  await writeFile(join(projectDir, 'entities', 'ledger.jsonc'), JSON.stringify(LEDGER));
  await writeFile(join(projectDir, 'entities', 'stock.jsonc'), JSON.stringify(STOCK));
  server = await startEntitiesServer({ env: { PROJECT_DIR: projectDir } });
  admin.email = uniqueEmail('data-admin');
  admin.token = (await createUser(server, { email: admin.email, role: 'admin' })).token;
  for (const person of [alice, bob]) {
    person.email = uniqueEmail('data-user');
    const made = await createUser(server, { email: person.email });
    person.token = made.token;
    person.id = made.user.id;
  }
  for (const [person, n] of [
    [alice, 3],
    [bob, 2],
  ] as const) {
    const ledger = entityOf(userClient(server, person.token), 'Ledger');
    for (let i = 0; i < n; i++) await ledger.create({ title: `${person.email} ${i}`, cost: 10 + i });
  }
  const stock = Array.from({ length: 60 }, (_, i) => ({ sku: `SKU-${String(i).padStart(2, '0')}`, qty: i }));
  const bulk = await api(server, `/api/apps/${DEFAULT_APP_ID}/entities/Stock/bulk`, {
    token: SERVICE_TOKEN,
    body: stock,
  });
  expect(bulk.status).toBe(201);
});

test.afterAll(async () => {
  expect(await server.stop()).toBe(0);
  await rm(projectDir, { recursive: true, force: true });
});

async function openData(page: Page, path: string) {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${server.url}/_/data${path}`);
  await page.getByLabel('Email').fill(admin.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Data', level: 1 })).toBeVisible();
}

test("the grid's reads go through the SDK with the console's session, not a visitor's token on this origin", async ({
  page,
}) => {
  const sent: { path: string; authorization: string | undefined }[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/api/'))
      sent.push({ path: pathname, authorization: request.headers().authorization });
  });
  // Alice is signed in to the marketing site in the same browser: her token sits where the SDK looks.
  await page.goto(`${server.url}/_/`);
  await page.evaluate((token) => localStorage.setItem('base44_access_token', token), alice.token);
  await openData(page, '?entity=Ledger');
  // The admin's view: all five Ledger rows (Alice's own token would read her three).
  await expect(page.locator('tbody tr[data-record-id]')).toHaveCount(5);

  const session = await page.evaluate(() => sessionStorage.getItem('queen-console.access-token'));
  const app = `/api/apps/${DEFAULT_APP_ID}`;
  const sdkReads = sent.filter(
    ({ path }) => path === `${app}/entities/User/me` || path === `${app}/entities/Ledger`,
  );
  expect(new Set(sdkReads.map(({ path }) => path))).toEqual(
    new Set([`${app}/entities/User/me`, `${app}/entities/Ledger`]),
  );
  for (const read of sdkReads) expect(read.authorization, read.path).toBe(`Bearer ${session}`);
  expect(sent.filter(({ authorization }) => authorization === `Bearer ${alice.token}`)).toEqual([]);
  // The site's storage is as Alice left it, and the console sent no app analytics.
  expect(await page.evaluate(() => localStorage.getItem('base44_access_token'))).toBe(alice.token);
  expect(sent.filter(({ path }) => path.includes('/analytics/'))).toEqual([]);
});

const firstCell = (page: Page, field: string) =>
  page.locator(`tbody tr[data-record-id] td[data-field="${field}"]`).first();

test('the grid: counts, paging, sort by a column, quick search, filter errors inline, schema, deep links', async ({
  page,
}) => {
  await openData(page, '?entity=Stock');
  const main = page.getByRole('main');
  const entities = main.getByRole('navigation', { name: 'Entities' });
  await expect(entities.getByRole('link', { name: 'Stock (60)' })).toHaveAttribute('aria-current', 'page');
  await expect(entities.getByRole('link', { name: 'Ledger (5)' })).toBeVisible();
  await expect(main.getByRole('heading', { name: /^Stock/, level: 2 })).toBeVisible();
  await expect(main.getByRole('button', { name: /^Edit record / }).first()).toBeVisible();
  await expect(main.getByRole('checkbox', { name: /^Select record / }).first()).toBeVisible();

  // Sort: ascending then descending by sku, said by aria-sort and shown in the rows' order.
  const skuHeader = main.getByRole('columnheader', { name: 'sku' });
  await skuHeader.getByRole('button').click();
  await expect(skuHeader).toHaveAttribute('aria-sort', 'ascending');
  await expect(firstCell(page, 'sku')).toHaveText('SKU-00');
  await skuHeader.getByRole('button').click();
  await expect(skuHeader).toHaveAttribute('aria-sort', 'descending');
  await expect(firstCell(page, 'sku')).toHaveText('SKU-59');
  await expect(main.getByRole('columnheader', { name: 'qty' })).toHaveAttribute('aria-sort', 'none');
  // Virtualised rows: of the page's 50, only those in the grid's view (and a few beyond) are in the page;
  // scrolled to its end, the grid holds the last and no longer the first.
  const rendered = page.locator('tbody tr[data-record-id]');
  expect(await rendered.count()).toBeLessThan(50);
  const skuCell = (sku: string) => page.locator('tbody td[data-field="sku"]', { hasText: sku });
  await rendered.first().evaluate((row) => {
    const scroller = row.closest('.overflow-auto');
    if (scroller) scroller.scrollTop = scroller.scrollHeight;
  });
  await expect(skuCell('SKU-10')).toBeVisible();
  await expect(skuCell('SKU-59')).toHaveCount(0);
  expect(await rendered.count()).toBeLessThan(50);
  // Paging: 50 a page, so the second holds the last 10 (SKU-09 … SKU-00 descending).
  await main.getByRole('button', { name: 'Next' }).click();
  await expect(main.getByText('Page 2', { exact: true })).toBeVisible();
  await expect(page.locator('tbody tr[data-record-id]')).toHaveCount(10);
  await expect(firstCell(page, 'sku')).toHaveText('SKU-09');
  await expect(main.getByRole('button', { name: 'Next' })).toBeDisabled();

  // Quick search: literal text in any string field (a regex character matches itself).
  await main.getByLabel('Quick search').fill('sku-4');
  await main.getByRole('button', { name: 'Apply' }).click();
  await expect(page.locator('tbody tr[data-record-id]')).toHaveCount(10);
  await main.getByLabel('Quick search').fill('SKU.4');
  await main.getByRole('button', { name: 'Apply' }).click();
  await expect(main.getByText('No record matches.')).toBeVisible();

  // Filter: JSON that does not parse, then a query the server refuses, each said next to the box.
  await main.getByLabel('Quick search').fill('');
  const filter = main.getByLabel('Filter (JSON)');
  await filter.fill('{"qty":');
  await main.getByRole('button', { name: 'Apply' }).click();
  const error = main.getByRole('alert');
  await expect(error).toContainText('not valid JSON');
  await expect(filter).toHaveAttribute('aria-describedby', (await error.getAttribute('id')) ?? 'none');
  await filter.fill('{"qty":{"$nope":1}}');
  await main.getByRole('button', { name: 'Apply' }).click();
  await expect(error).toContainText('$nope');
  await filter.fill('{"qty":{"$gte":58}}');
  await main.getByRole('button', { name: 'Apply' }).click();
  await expect(page.locator('tbody tr[data-record-id]')).toHaveCount(2);
  await expect(main.getByRole('alert')).toHaveCount(0);
  expect(await axeViolations(page), 'data at 1440').toEqual([]);
  await consoleScreenshot(page, 'data');

  // Schema and rules of Ledger, reached by its link; the back button returns to Stock.
  await entities.getByRole('link', { name: 'Ledger (5)' }).click();
  await expect(page).toHaveURL(`${server.url}/_/data?entity=Ledger`);
  const schema = main.getByRole('region', { name: 'Schema and rules' });
  await expect(schema.getByRole('row', { name: /^title string Yes/ })).toBeVisible();
  await expect(schema.getByRole('row', { name: /^cost number No/ })).toBeVisible();
  await expect(schema.getByRole('row', { name: /Field cost read .*admin/ })).toBeVisible();
  await expect(schema.getByRole('row', { name: /Rows read .*created_by/ })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(`${server.url}/_/data?entity=Stock`);
  await expect(main.getByRole('heading', { name: /^Stock/, level: 2 })).toBeVisible();

  // 390 px: the grid scrolls sideways inside its own region, the page does not.
  await page.setViewportSize({ width: 390, height: 844 });
  const region = main.getByRole('region', { name: /Stock records/ });
  const widths = await region.evaluate((el) => ({ client: el.clientWidth, scroll: el.scrollWidth }));
  expect(widths.scroll).toBeGreaterThan(widths.client);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(await axeViolations(page), 'data at 390').toEqual([]);
});

test("View as user: exactly the user's own SDK list, rows and fields, read-only; deep link and back", async ({
  page,
}) => {
  await openData(page, '?entity=Ledger');
  const main = page.getByRole('main');
  await expect(page.locator('tbody tr[data-record-id]')).toHaveCount(5);
  await main.getByText('View as user…').click();
  await main.getByLabel('Find a user by email or name').fill(alice.email);
  await main.getByRole('button', { name: 'Find' }).click();
  const viewAs = page.waitForResponse((response) => response.url().includes('/view-as/'));
  await main.getByRole('button', { name: `View as ${alice.email}` }).click();
  const answer: unknown = await (await viewAs).json();
  await expect(page).toHaveURL(`${server.url}/_/data?entity=Ledger&as=${alice.id}`);
  await expect(main.getByText(`Viewing as ${alice.email} — read-only`)).toBeVisible();

  // The same records, field for field, as Alice's own SDK call in the grid's order.
  const own = (await entityOf(userClient(server, alice.token), 'Ledger').list('-created_date', 51, 0)) as {
    id: string;
    title: string;
    cost?: number;
  }[];
  expect(answer).toEqual(own);
  expect(own).toHaveLength(3);
  expect(own.every((record) => !('cost' in record))).toBe(true);
  const rows = page.locator('tbody tr[data-record-id]');
  await expect(rows).toHaveCount(3);
  expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-record-id')))).toEqual(
    own.map((record) => record.id),
  );
  for (const record of own) {
    const row = page.locator(`tr[data-record-id="${record.id}"]`);
    await expect(row.locator('td[data-field="title"]')).toHaveText(record.title);
    await expect(row.locator('td[data-field="cost"]')).toHaveText('');
  }
  // Read-only: no selection and no edit.
  await expect(main.getByRole('button', { name: /^Edit record / })).toHaveCount(0);
  await expect(main.getByRole('checkbox', { name: /^Select record / })).toHaveCount(0);
  expect(await axeViolations(page), 'view as').toEqual([]);
  await consoleScreenshot(page, 'data-view-as');

  // A deep link opens the view directly; the back button leaves it.
  await page.goto(`${server.url}/_/data?entity=Ledger`);
  await expect(page.locator('tbody tr[data-record-id]')).toHaveCount(5);
  await page.goto(`${server.url}/_/data?entity=Ledger&as=${bob.id}`);
  await expect(main.getByText(`Viewing as ${bob.email} — read-only`)).toBeVisible();
  await expect(page.locator('tbody tr[data-record-id]')).toHaveCount(2);
  await page.goBack();
  await expect(page).toHaveURL(`${server.url}/_/data?entity=Ledger`);
  await expect(page.locator('tbody tr[data-record-id]')).toHaveCount(5);
  await expect(main.getByRole('button', { name: /^Edit record / })).toHaveCount(5);
});

test("a deep link's first screen is asked for beside the session check, not after it", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.addInitScript(
    (token) => sessionStorage.setItem('queen-console.access-token', token),
    admin.token,
  );
  // The session check is held until the grid's first page has been asked for: without the prefetch the
  // page would only ask after the check, and the check would never be answered.
  let asked!: () => void;
  const firstPageAsked = new Promise<void>((resolve) => (asked = resolve));
  await page.route('**/entities/Stock?*', async (route) => {
    asked();
    await route.continue();
  });
  await page.route('**/entities/User/me', async (route) => {
    await Promise.race([
      firstPageAsked,
      new Promise((_, reject) => setTimeout(() => reject(new Error('the grid was not asked for')), 10_000)),
    ]);
    await route.continue();
  });
  await page.goto(`${server.url}/_/data?entity=Stock`);
  await expect(page.getByRole('heading', { name: /^Stock/, level: 2 })).toBeVisible();
  await expect(firstCell(page, 'sku')).toBeVisible();
});

test('a non-admin and an anonymous caller are refused on the Data endpoints', async () => {
  for (const path of [ENTITIES, `${ENTITIES}/Ledger/view-as/${alice.id}`]) {
    expect((await api(server, path, { method: 'GET', token: alice.token })).status, path).toBe(403);
    expect((await api(server, path, { method: 'GET' })).status, path).toBe(401);
  }
  expect((await api(server, ENTITIES, { method: 'GET', token: admin.token })).status).toBe(200);
});
