import { expect, forThisFile, test } from '../../support/test';
import type { RunningServer } from '../../support/server-process';
import { openSite } from '../../support/open-site';

// A crafted link must not make the page send the visitor's token anywhere but its own origin.

let server: RunningServer;
test.beforeAll(async ({ sharedServer }) => {
  server = forThisFile(sharedServer);
});

test('server_url to a foreign origin is ignored and no request leaves the origin', async ({
  page,
  context,
}) => {
  const foreign: string[] = [];
  await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => {
    foreign.push(route.request().url());
    return route.abort();
  });
  const otherPort: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(server.url) && !request.url().startsWith('data:'))
      otherPort.push(request.url());
  });
  await page.addInitScript(() => localStorage.setItem('base44_access_token', 'stored-visitor-token'));
  await openSite(page, `${server.url}/?server_url=${encodeURIComponent('http://evil.example:4444')}`);
  await expect(page.locator('[data-hero-state="ready"]')).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(foreign).toEqual([]);
  expect(otherPort).toEqual([]);
  expect(await page.evaluate(() => localStorage.getItem('base44_server_url'))).toBeNull();
});

test('a token in the URL is removed from the address bar at once', async ({ page }) => {
  await openSite(page, `${server.url}/?access_token=url-token-xyz&keep=1#kingdom`);
  await expect(page.getByText('QUEEN OF QUEENS')).toBeVisible();
  expect(page.url()).toBe(`${server.url}/?keep=1#kingdom`);
});
