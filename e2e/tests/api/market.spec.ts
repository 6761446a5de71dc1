import { expect, test } from '../../support/test';
import { MARKET_MINT, MARKET_POOL, startMarketDouble, type MarketDouble } from '../../support/market-double';
import { startServer, type RunningServer } from '../../support/server-process';

// `GET /api/market` against local doubles of DexScreener and GeckoTerminal. One server for the file, with a
// short cache (fresh 300 ms, stale 1.2 s) so each test starts cold after a short wait instead of minutes.
const FRESH_MS = 300;
const STALE_MS = 1200;
let market: MarketDouble;
let server: RunningServer;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  market = await startMarketDouble();
  server = await startServer({
    env: { ...market.env, MARKET_FRESH_MS: String(FRESH_MS), MARKET_STALE_MS: String(STALE_MS) },
  });
});

test.afterAll(async () => {
  expect(await server.stop()).toBe(0);
  await market.close();
});

/** coldStart sets the sources and waits until the server's last answer is past serving. */
async function coldStart(options: Parameters<MarketDouble['set']>[0]) {
  market.set(options);
  await new Promise((resolve) => setTimeout(resolve, STALE_MS + 100));
  market.paths.length = 0;
}

const dexCalls = () => market.paths.filter((path) => path.startsWith('/dex/')).length;

test('quotes the most liquid solana pair of the token, with the top pool’s candles', async ({ request }) => {
  market.set({});
  const answer = await request.get(`${server.url}/api/market`);
  expect(answer.status()).toBe(200);
  expect(answer.headers()['cache-control']).toBe('public, max-age=15, stale-while-revalidate=60');
  const body = await answer.json();
  expect(body).toMatchObject({
    priceUsd: 0.00001234,
    change24h: 12.34,
    marketCap: 1_234_567,
    fdv: 2_345_678,
    liquidityUsd: 90_000,
    volume24hUsd: 54_321,
    source: 'DexScreener',
    sourceUrl: `https://dexscreener.com/solana/${MARKET_POOL}`,
  });
  expect(body.sparkline).toHaveLength(24);
  expect(body.sparkline[0][0]).toBeLessThan(body.sparkline[23][0]);
  expect(Date.parse(body.updatedAt)).toBeGreaterThan(Date.now() - 60_000);
});

test('a missing market cap is null, with the FDV kept', async ({ request }) => {
  await coldStart({ marketCap: undefined });
  const body = await (await request.get(`${server.url}/api/market`)).json();
  expect(body).toMatchObject({ marketCap: null, fdv: 2_345_678, source: 'DexScreener' });
});

for (const dex of ['fail', 'no-pair', 'garbage'] as const) {
  test(`falls back to GeckoTerminal when DexScreener answers ${dex}`, async ({ request }) => {
    await coldStart({ dex });
    const body = await (await request.get(`${server.url}/api/market`)).json();
    expect(body).toMatchObject({
      priceUsd: 0.00002468,
      change24h: -5.5,
      marketCap: null,
      fdv: 3_000_000,
      liquidityUsd: 80_000.5,
      source: 'GeckoTerminal',
      sourceUrl: `https://www.geckoterminal.com/solana/pools/${MARKET_POOL}`,
    });
  });
}

test('falls back when DexScreener times out (5 s)', async ({ request }) => {
  test.slow();
  await coldStart({ dex: 'slow' });
  const started = Date.now();
  const body = await (await request.get(`${server.url}/api/market`)).json();
  expect(body.source).toBe('GeckoTerminal');
  expect(Date.now() - started).toBeLessThan(7_000);
});

test('garbage from both sources: 404, and each failure logged once', async ({ request }) => {
  await coldStart({ dex: 'garbage', gecko: 'garbage' });
  const answer = await request.get(`${server.url}/api/market`);
  expect(answer.status()).toBe(404);
  expect(answer.headers()['cache-control']).toContain('max-age=15');
  await new Promise((resolve) => setTimeout(resolve, STALE_MS + 100));
  expect((await request.get(`${server.url}/api/market`)).status()).toBe(404);
  // Two failed refreshes, one line per source a minute.
  const skipped = server
    .logs()
    .split('\n')
    .filter((line) => line.includes('market source skipped'));
  expect(skipped.filter((line) => line.includes('"source":"GeckoTerminal"'))).toHaveLength(1);
});

test('100 concurrent requests make one upstream call', async ({ request }) => {
  await coldStart({ delayMs: 200 });
  const answers = await Promise.all(
    Array.from({ length: 100 }, () => request.get(`${server.url}/api/market`)),
  );
  expect(answers.every((answer) => answer.status() === 200)).toBe(true);
  expect(dexCalls()).toBe(1);
});

test('serves the stale answer at once while it refreshes', async ({ request }) => {
  await coldStart({ price: '0.5' });
  expect((await (await request.get(`${server.url}/api/market`)).json()).priceUsd).toBe(0.5);
  market.set({ price: '0.75', delayMs: 500 });
  await new Promise((resolve) => setTimeout(resolve, FRESH_MS + 50));
  const started = Date.now();
  expect((await (await request.get(`${server.url}/api/market`)).json()).priceUsd).toBe(0.5);
  expect(Date.now() - started).toBeLessThan(400);
  await expect
    .poll(async () => (await (await request.get(`${server.url}/api/market`)).json()).priceUsd)
    .toBe(0.75);
});

test('serves no other address: the route takes none', async ({ request }) => {
  const other = '8sLbNZoA1cfnvMJLPfp98ZLAnFSYCFApfJKMbiXNLwxj';
  expect((await request.get(`${server.url}/api/market?address=${other}`)).status()).toBe(400);
  expect((await request.get(`${server.url}/api/market/${other}`)).status()).toBe(404);
  expect((await request.get(`${server.url}/api/market?mint=${other}`)).status()).toBe(400);
  expect(market.paths.some((path) => path.includes(other))).toBe(false);
  expect(market.paths.every((path) => path.includes(MARKET_MINT) || path.includes(MARKET_POOL))).toBe(true);
});
