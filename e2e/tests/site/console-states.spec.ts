import { expect, forThisFile, test } from '../../support/test';
import { createUser, uniqueEmail } from '../../support/auth-helpers';
import type { RunningServer } from '../../support/server-process';

// Every console page's loading and error states (issues 23 and 24): while its first request is held the
// page says it is loading; when that request fails the page says why, with "Try again", which loads it once
// the server answers again. The request is held and failed in the browser (page.route); the server is real.

let server: RunningServer;
let token = '';

test.beforeAll(async ({ sharedAuthServer }) => {
  server = forThisFile(sharedAuthServer);
  token = (await createUser(server, { email: uniqueEmail('states-admin'), role: 'admin' })).token;
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
