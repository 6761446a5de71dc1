import { expect, forThisFile, test } from '../../support/test';
import type { RunningServer } from '../../support/server-process';
import { openSite } from '../../support/open-site';
import { axeViolations } from '../../support/axe';

let server: RunningServer;
test.beforeAll(async ({ sharedServer }) => {
  server = forThisFile(sharedServer);
});

test('an unknown path answers 404 and echoes the path; Go Home returns to /', async ({ page }) => {
  const response = await openSite(page, `${server.url}/royal/treasury?x=1`);
  expect(response?.status()).toBe(404);
  await expect(page.getByText('404', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  await expect(
    page.getByText('The page "royal/treasury" could not be found in this application.'),
  ).toBeVisible();
  await expect(page.getByText('Admin Note')).toHaveCount(0);
  await page.getByRole('button', { name: 'Go Home' }).click();
  await page.waitForURL(`${server.url}/`);
  await expect(page.getByText('QUEEN OF QUEENS')).toBeVisible();
});

test('the echoed path is text, never markup, and hydrates without errors', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    // The 404 document itself and the anonymous user check (401) are expected failed loads.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      errors.push(message.text());
  });
  let dialogs = 0;
  page.on('dialog', (dialog) => {
    dialogs += 1;
    void dialog.dismiss();
  });
  await openSite(page, `${server.url}/%3Cimg%20src=x%20onerror=alert(1)%3E`);
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  await expect(page.getByText('The page "<img src=x onerror=alert(1)>" could not be found')).toBeVisible();
  await expect(page.locator('main img')).toHaveCount(0);
  await page.waitForLoadState('networkidle');
  expect(dialogs).toBe(0);
  expect(errors).toEqual([]);
});

test('the 404 screen has no WCAG 2.2 AA violations', async ({ page }) => {
  await openSite(page, `${server.url}/missing`);
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
});
