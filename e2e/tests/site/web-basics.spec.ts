import { expect, test } from '../../support/test';
import { openSite } from '../../support/open-site';
import { startServer, type RunningServer } from '../../support/server-process';
import { shippedConfig } from '../../support/site-config';

// What browsers, crawlers and link previews read, and the run-time APP_ID.

let server: RunningServer;
test.beforeAll(async () => {
  server = await startServer({ env: { APP_ID: 'renamed-at-start' } });
});
test.afterAll(async () => {
  await server.stop();
});

test('title, description, canonical, Open Graph and Twitter card tags', async ({ page }) => {
  await openSite(page, server.url);
  await expect(page).toHaveTitle(/QUEEN SOLANA/);
  const meta = (selector: string) => page.locator(selector).getAttribute('content');
  expect(await meta('meta[name="description"]')).toContain(shippedConfig.coinName);
  const canonical = await page.locator('link[rel="canonical"]').getAttribute('href');
  expect(canonical).toMatch(/^https?:\/\/.+\/$/);
  expect(await meta('meta[property="og:type"]')).toBe('website');
  expect(await meta('meta[property="og:url"]')).toBe(canonical);
  expect(await meta('meta[property="og:image"]')).toMatch(/\/og-image\.png$/);
  expect(await meta('meta[property="og:image:width"]')).toBe('1200');
  expect(await meta('meta[property="og:image:height"]')).toBe('630');
  expect(await meta('meta[name="twitter:card"]')).toBe('summary_large_image');
  expect(await page.locator('html').getAttribute('lang')).toBe('en');
});

test('favicon, manifest, robots.txt, sitemap and the 1200×630 share image are served', async ({
  request,
}) => {
  const favicon = await request.get(`${server.url}/favicon.svg`);
  expect(favicon.status()).toBe(200);
  expect(await favicon.text()).toContain('<svg');
  const manifest = await (await request.get(`${server.url}/manifest.webmanifest`)).json();
  expect(manifest.name).toContain('QUEEN SOLANA');
  expect(manifest.icons.length).toBeGreaterThanOrEqual(2);
  const robots = await (await request.get(`${server.url}/robots.txt`)).text();
  expect(robots).toContain('Allow: /');
  expect(robots).toContain('Sitemap:');
  expect((await request.get(`${server.url}/sitemap.xml`)).status()).toBe(200);
  const image = await request.get(`${server.url}/og-image.png`);
  expect(image.headers()['content-type']).toBe('image/png');
  const png = await image.body();
  // PNG IHDR: width and height are big-endian at bytes 16 and 20.
  expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
});

test('APP_ID given at start reaches the page without a rebuild', async ({ page }) => {
  const appIds = new Set<string>();
  page.on('request', (request) => {
    const match = /\/api\/apps\/([^/]+)\//.exec(new URL(request.url()).pathname);
    if (match?.[1] && match[1] !== 'public') appIds.add(match[1]);
  });
  await page.addInitScript(() => localStorage.clear());
  await openSite(page, server.url);
  await expect(page.locator('[data-hero-state="ready"] img')).toBeVisible();
  // The platform client loads at the first interaction and reports the visit to the analytics endpoint.
  const analytics = page.waitForRequest(/\/analytics\/track\/batch$/);
  await page.mouse.wheel(0, 200);
  await analytics;
  expect([...appIds]).toEqual(['renamed-at-start']);
  expect(await page.evaluate(() => localStorage.getItem('base44_app_id'))).toBe('renamed-at-start');
});

for (const [width, height] of [
  [360, 740],
  [1920, 1080],
] as const) {
  test(`no horizontal scrolling at ${width}×${height}`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await openSite(page, server.url);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  });
}
