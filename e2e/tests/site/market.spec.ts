import type { Page } from '@playwright/test';
import { expect, forThisFile, test } from '../../support/test';
import { MARKET_POOL, startMarketDouble, type MarketDouble } from '../../support/market-double';
import { openSite, waitForHydration } from '../../support/open-site';
import { startServer, type RunningServer } from '../../support/server-process';

// The market tile (hero) and strip (How to Buy): figures in the first HTML, their wording, the pre-launch
// text, refreshes only while the page is visible, and no layout shift. One live server for the file.
let market: MarketDouble;
let live: RunningServer;
let placeholder: RunningServer;

const PRICE = '$0.000\u2009012\u200934';
const tile = (page: Page) => page.locator('[data-market]').first();
const strip = (page: Page) => page.locator('#buy [data-market]');

// Visitors read en-US, the locale the figures are served in, unless a test says otherwise.
test.use({ locale: 'en-US' });

test.beforeAll(async ({ sharedServer }) => {
  placeholder = forThisFile(sharedServer);
  market = await startMarketDouble();
  live = await startServer({ env: { ...market.env, MARKET_FRESH_MS: '300' } });
  // The first visitor of a cold server would get the pre-launch text (then figures after hydration).
  expect((await fetch(`${live.url}/api/market`)).status).toBe(200);
});

test.afterAll(async () => {
  expect(await live.stop()).toBe(0);
  await market.close();
});

/** trackLayoutShifts sums every layout shift of the page's life into window.layoutShift. */
async function trackLayoutShifts(page: Page) {
  await page.addInitScript(() => {
    const record = window as unknown as { layoutShift: number; shifted: string[] };
    record.layoutShift = 0;
    record.shifted = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const shift = entry as unknown as { value: number; sources?: { node?: Node | null }[] };
        record.layoutShift += shift.value;
        // What moved, so a failure names it.
        for (const source of shift.sources ?? []) {
          const node = source.node;
          const element = node instanceof Element ? node : node?.parentElement;
          record.shifted.push(
            element ? `${element.tagName.toLowerCase()}.${element.className}`.slice(0, 120) : '?',
          );
        }
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

test('the first HTML holds the figures, worded for people', async ({ request }) => {
  market.set({});
  const html = await (await request.get(live.url)).text();
  expect(html.match(/data-market="live"/g)).toHaveLength(2);
  expect(html).toContain(PRICE);
  expect(html).toContain('$1.2M');
  expect(html).toContain('$90K');
  // The boot data does not carry the snapshot as well: the refresh asks for it after the first paint.
  expect(html).not.toContain('"market":');
});

for (const [width, height] of [
  [390, 844],
  [1440, 900],
] as const) {
  test(`figures, screen-reader words and no layout shift at ${width} px`, async ({ page }) => {
    market.set({});
    await trackLayoutShifts(page);
    await page.setViewportSize({ width, height });
    await openSite(page, live.url);
    for (const view of [tile(page), strip(page)]) {
      await expect(view).toHaveAttribute('data-market', 'live');
      await expect(view.getByText(PRICE)).toBeVisible();
      await expect(view.getByText('+12.3%')).toBeVisible();
      await expect(view.locator('.sr-only', { hasText: 'up' })).toBeAttached();
      await expect(view.getByText('$1.2M')).toBeVisible();
      await expect(view.getByText(/^data: \S+ · updated \d+ s ago$/)).toBeVisible();
      await expect(view.getByRole('link', { name: 'DexScreener' })).toHaveAttribute(
        'href',
        `https://dexscreener.com/solana/${MARKET_POOL}`,
      );
      expect(await view.locator('polyline').getAttribute('points')).toMatch(
        /^[\d.]+,[\d.]+( [\d.]+,[\d.]+){23}$/,
      );
    }
    await expect(strip(page).getByText('$90K')).toBeVisible();
    await expect(strip(page).getByText('$54.3K')).toBeVisible();
    // Nothing spills out of the reserved boxes.
    for (const view of [tile(page), strip(page)]) {
      expect(await view.evaluate((node) => node.scrollHeight <= node.clientHeight)).toBe(true);
    }
    await page.mouse.wheel(0, 3000);
    await page.waitForTimeout(300);
    const shifts = await page.evaluate(() => {
      const { layoutShift, shifted } = window as unknown as { layoutShift: number; shifted: string[] };
      return { layoutShift, shifted };
    });
    expect(shifts.layoutShift, `layout shifts of: ${shifts.shifted.join(' | ')}`).toBe(0);

    // The pre-launch text takes exactly the same space.
    const size = async (view: ReturnType<typeof tile>) =>
      view.evaluate((node: HTMLElement) => [node.offsetWidth, node.offsetHeight]);
    const liveSizes = [await size(tile(page)), await size(strip(page))];
    await openSite(page, placeholder.url);
    expect([await size(tile(page)), await size(strip(page))]).toEqual(liveSizes);
  });
}

test('a fall reads "down", and the visitor’s locale words the figures', async ({ browser, request }) => {
  market.set({ change: -3.5 });
  await expect
    .poll(async () => (await (await request.get(`${live.url}/api/market`)).json()).change24h)
    .toBe(-3.5);
  const context = await browser.newContext({ locale: 'de-DE' });
  const page = await context.newPage();
  await openSite(page, live.url);
  const view = tile(page);
  await expect(view.getByText('0,000\u2009012\u200934\u00a0$')).toBeVisible();
  await expect(view).toHaveAttribute('data-trend', 'down');
  await expect(view.getByText(/▼/)).toBeVisible();
  await expect(view.locator('.sr-only', { hasText: 'down' })).toBeAttached();
  await expect(view.getByText('-3,5\u00a0%')).toBeVisible();
  await context.close();
  market.set({});
});

test('the placeholder: "Market data appears after launch", and no requests for figures', async ({ page }) => {
  const asked: string[] = [];
  page.on('request', (request) => {
    if (/\/api\/market|market-main/.test(request.url())) asked.push(request.url());
  });
  await openSite(page, placeholder.url);
  for (const view of [tile(page), strip(page)]) {
    await expect(view).toHaveAttribute('data-market', 'placeholder');
    await expect(view).toHaveText('Market data appears after launch');
  }
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
  expect(asked).toEqual([]);
});

test('with figures, the market refresh is asked for only after the first contentful paint', async ({
  page,
}) => {
  market.set({});
  await openSite(page, live.url);
  const timing = () =>
    page.evaluate(() => ({
      paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
      script:
        performance.getEntriesByType('resource').find((entry) => /market-main-[^/]+\.js$/.test(entry.name))
          ?.startTime ?? null,
    }));
  await expect.poll(async () => (await timing()).script).not.toBeNull();
  const { paint, script } = await timing();
  expect(paint).not.toBeNull();
  // Not in the chain the first paint waits on; the first HTML already holds the figures.
  expect(script).toBeGreaterThanOrEqual(paint ?? Infinity);
});

test('refreshes every 30 s while visible, none while hidden', async ({ page }) => {
  market.set({});
  const asked: string[] = [];
  let refreshScriptLoaded = false;
  page.on('request', (request) => {
    if (request.url().endsWith('/api/market')) asked.push(request.url());
  });
  page.on('requestfinished', (request) => {
    if (/\/market-main-[^/]+\.js$/.test(request.url())) refreshScriptLoaded = true;
  });
  await page.clock.install();
  await page.goto(live.url);
  await page.clock.runFor(5_000);
  await waitForHydration(page);
  // This visitor reads en-US, the locale the page was served in: nothing to re-word, so the first
  // refresh comes after 30 s (another locale asks at once: the de-DE test above), then every 30 s.
  // The refresh script has arrived (and so runs within a moment) before none is said to have asked.
  await expect.poll(() => refreshScriptLoaded).toBe(true);
  await page.waitForTimeout(500);
  expect(asked).toHaveLength(0);
  await page.clock.runFor(30_000);
  await expect.poll(() => asked.length).toBe(1);
  await page.clock.runFor(30_000);
  await expect.poll(() => asked.length).toBe(2);

  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await page.clock.runFor(120_000);
  await page.waitForTimeout(200);
  expect(asked).toHaveLength(2);

  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await expect.poll(() => asked.length).toBe(3);
});
