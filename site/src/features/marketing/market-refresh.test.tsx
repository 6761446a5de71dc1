import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatMarketFigures, type MarketSnapshot } from '../../page-contract/market';
import { MarketView } from './components/market-view';
import { MARKET_REFRESH_MS, showFigures, startMarketRefresh } from './market-refresh';

const SNAPSHOT: MarketSnapshot = {
  priceUsd: 2.5,
  change24h: 4,
  marketCap: 1_500_000,
  fdv: null,
  liquidityUsd: 10_000,
  volume24hUsd: 20_000,
  sparkline: [
    [0, 1],
    [1, 2],
  ],
  updatedAt: '2026-01-01T00:00:00.000Z',
  source: 'DexScreener',
  sourceUrl: 'https://dexscreener.com/solana/a',
};

describe('showFigures', () => {
  it('rewrites the figures, trend, sparkline and link of the live views the server filled', () => {
    const served = formatMarketFigures(SNAPSHOT, 'en-US', Date.parse(SNAPSHOT.updatedAt));
    const root = document.createElement('div');
    root.innerHTML = renderToString(<MarketView figures={served} variant="strip" />);
    const fall = { ...SNAPSHOT, priceUsd: 0.5, change24h: -7, marketCap: null, fdv: 9e6 };
    showFigures(
      formatMarketFigures(
        { ...fall, source: 'GeckoTerminal', sourceUrl: 'https://g.example/p' },
        'en-US',
        Date.parse(SNAPSHOT.updatedAt) + 65_000,
      ),
      root,
    );
    const view = root.querySelector<HTMLElement>('[data-market="live"]');
    expect(view?.dataset.trend).toBe('down');
    expect(view?.textContent).toContain('$0.5');
    expect(view?.textContent).toContain('▼');
    expect(view?.textContent).toContain('FDV');
    expect(view?.textContent).toContain('$9M');
    expect(view?.textContent).toContain('data: GeckoTerminal · updated 1 min ago');
    expect(view?.querySelector('a')?.getAttribute('href')).toBe('https://g.example/p');
    expect(view?.querySelector('polyline')?.getAttribute('points')).toBe('0,32 100,0');
  });
});

describe('startMarketRefresh', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
    document.body.innerHTML = '';
  });

  it('asks for the figures once shown, not while its tab is hidden, and words them', async () => {
    const served = formatMarketFigures(SNAPSHOT, 'en-US', Date.parse(SNAPSHOT.updatedAt));
    document.body.innerHTML = renderToString(<MarketView figures={served} variant="tile" />);
    let visibility: DocumentVisibilityState = 'hidden';
    vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
    const fetchMock = vi.fn(async () => Response.json({ ...SNAPSHOT, priceUsd: 7 }));
    vi.stubGlobal('fetch', fetchMock);

    vi.useFakeTimers({ toFake: ['setInterval'] });
    startMarketRefresh();
    expect(fetchMock).not.toHaveBeenCalled();
    visibility = 'visible';
    document.dispatchEvent(new Event('visibilitychange'));
    await vi.waitFor(() => expect(document.body.textContent).toContain('$7'));
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['de-DE', 1],
    ['en-US', 0],
  ])(
    'for a visitor reading %s, asks at once %i times (the page was served worded in en-US)',
    (language, asked) => {
      vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => 'visible');
      vi.spyOn(navigator, 'language', 'get').mockImplementation(() => language);
      const fetchMock = vi.fn(async () => Response.json(SNAPSHOT));
      vi.stubGlobal('fetch', fetchMock);
      vi.useFakeTimers({ toFake: ['setInterval'] });
      startMarketRefresh();
      expect(fetchMock).toHaveBeenCalledTimes(asked);
      vi.advanceTimersByTime(MARKET_REFRESH_MS);
      expect(fetchMock).toHaveBeenCalledTimes(asked + 1);
    },
  );
});
