import type { Locator, Page } from '@playwright/test';
import { expect, forThisFile, test } from '../../support/test';
import { createUser, PASSWORD, uniqueEmail } from '../../support/auth-helpers';
import { axeViolations } from '../../support/axe';
import type { RunningServer } from '../../support/server-process';

// Every console page's loading and error states (issues 23 and 24): while its first request is held the
// page says it is loading; when that request fails the page says why, with "Try again", which loads it once
// the server answers again. The request is held and failed in the browser (page.route); the server is real.
// The empty states of a project with nothing to show. The keyboard alone: sign in, then reach every page
// from the menu, landing on its heading. And every page at 390 px: menu collapsed, no sideways scroll, axe.

let server: RunningServer;
let token = '';
let email = '';

test.beforeAll(async ({ sharedAuthServer }) => {
  server = forThisFile(sharedAuthServer);
  email = uniqueEmail('states-admin');
  token = (await createUser(server, { email, role: 'admin' })).token;
});

/** PAGES are each page's path, heading and first request (the one its content waits on). */
const PAGES: { path: string; heading: string; request: RegExp }[] = [
  { path: 'overview', heading: 'Overview', request: /\/admin\/overview$/ },
  { path: 'users', heading: 'Users', request: /\/admin\/users\?/ },
  { path: 'data', heading: 'Data', request: /\/admin\/entities$/ },
  { path: 'logs', heading: 'Logs', request: /\/admin\/logs\/functions\?/ },
  { path: 'analytics', heading: 'Analytics', request: /\/admin\/analytics\?/ },
  { path: 'functions', heading: 'Functions', request: /\/admin\/functions$/ },
  { path: 'agents', heading: 'Agents', request: /\/admin\/agents$/ },
  { path: 'integrations', heading: 'Integrations', request: /\/admin\/integrations$/ },
  { path: 'secrets', heading: 'Secrets', request: /\/admin\/secrets$/ },
  { path: 'settings', heading: 'Settings', request: /\/admin\/overview$/ },
];

test('every page says it is loading, then why it failed, and loads on "Try again"', async ({ page }) => {
  test.setTimeout(120_000);
  await page.addInitScript((value) => sessionStorage.setItem('queen-console.access-token', value), token);
  const main = page.getByRole('main');
  for (const { path, heading, request } of PAGES) {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(request, async (route) => {
      await held;
      await route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ message: 'The database is restarting: try again in a minute' }),
      });
    });
    await page.goto(`${server.url}/_/${path}`);
    await expect(main.getByRole('heading', { name: heading, level: 1 }), path).toBeVisible();
    await expect(main.getByRole('status').filter({ hasText: /^Loading / }), path).toBeVisible();
    release();
    const alert = main.getByRole('alert').filter({ hasText: 'Could not load this page' });
    await expect(alert, path).toContainText('The database is restarting', { timeout: 15_000 });
    await expect(main.getByRole('status').filter({ hasText: /^Loading / }), path).toHaveCount(0);
    await page.unroute(request);
    await alert.getByRole('button', { name: 'Try again' }).click();
    await expect(alert, path).toBeHidden();
    await expect(main.getByRole('status').filter({ hasText: /^Loading / }), path).toHaveCount(0);
  }
});

test('pages with nothing to show say so (a project without functions, agents, integrations or an LLM)', async ({
  page,
}) => {
  await page.addInitScript((value) => sessionStorage.setItem('queen-console.access-token', value), token);
  const main = page.getByRole('main');
  const empty: [string, string[]][] = [
    ['functions', ['This project has no backend functions (its functions/ folder is empty).']],
    ['agents', ['This project has no agents (its agents/ folder is empty).']],
    [
      'integrations',
      [
        'No LLM provider is set: InvokeLLM and agents answer 503.',
        'This project declares no custom integrations (its integrations/ folder is empty).',
      ],
    ],
    ['analytics', ['No LLM calls in this period.']],
  ];
  for (const [path, texts] of empty) {
    await page.goto(`${server.url}/_/${path}`);
    for (const text of texts) await expect(main.getByText(text), path).toBeVisible();
  }
});

test('the keyboard alone signs in and reaches every page from the menu, landing on its heading', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${server.url}/_/`);
  await expect(page.getByLabel('Email')).toBeVisible();
  // Sign in: Tab to the email field, type, Tab to the password, type, Enter.
  await tabTo(page, page.getByLabel('Email'));
  await page.keyboard.type(email);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Password')).toBeFocused();
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Enter');
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { name: 'Overview', level: 1 })).toBeFocused();
  const menu = page.getByRole('navigation', { name: 'Console' });
  for (const { heading } of PAGES.filter(({ path }) => path !== 'overview')) {
    await tabTo(page, menu.getByRole('link', { name: heading, exact: true }));
    await page.keyboard.press('Enter');
    await expect(main.getByRole('heading', { name: heading, level: 1 }), heading).toBeFocused();
  }
});

/** tabTo presses Tab until target has the focus (at most 60 times: the menu and a page's controls). */
async function tabTo(page: Page, target: Locator) {
  for (let presses = 0; presses < 60; presses += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

test('at 390 px every page collapses the menu, never scrolls sideways (tables scroll in place), and passes axe', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.addInitScript((value) => sessionStorage.setItem('queen-console.access-token', value), token);
  const main = page.getByRole('main');
  for (const { path, heading, request } of PAGES) {
    const loaded = page.waitForResponse((response) => request.test(response.url()));
    await page.goto(`${server.url}/_/${path}`);
    await expect(main.getByRole('heading', { name: heading, level: 1 }), path).toBeVisible();
    await loaded;
    await expect(main.getByRole('status').filter({ hasText: /^Loading / }), path).toHaveCount(0);
    const menu = page.getByRole('button', { name: 'Menu' });
    await expect(menu, path).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByRole('navigation').getByRole('link', { name: 'Overview' }), path).toBeHidden();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${path} scrolls sideways by ${overflow} px`).toBeLessThanOrEqual(0);
    expect(await axeViolations(page), `${path} at 390`).toEqual([]);
  }
  // The menu opens over the page and takes the reader to another page, closing behind them.
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('navigation').getByRole('link', { name: 'Secrets' }).click();
  await expect(main.getByRole('heading', { name: 'Secrets', level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Menu' })).toHaveAttribute('aria-expanded', 'false');
});
