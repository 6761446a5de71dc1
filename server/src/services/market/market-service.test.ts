import { describe, expect, it, vi } from 'vitest';
import { createMarketService } from './market-service';
import { MarketSourceError, type MarketQuote } from './market-sources';

const QUOTE: MarketQuote = {
  priceUsd: 1,
  change24h: 2,
  marketCap: 3,
  fdv: 4,
  liquidityUsd: 5,
  volume24hUsd: 6,
  source: 'DexScreener',
  sourceUrl: 'https://dexscreener.com/solana/x',
  poolAddress: 'pool',
};

function setup() {
  let time = 1_000_000;
  const log = { warn: vi.fn() };
  const upstream = {
    dexScreener: vi.fn(async () => QUOTE),
    geckoTerminal: vi.fn(async () => ({ ...QUOTE, source: 'GeckoTerminal' as const })),
    candles: vi.fn(async () => [[1, 1] as [number, number]]),
  };
  const service = createMarketService({
    mint: 'mint',
    sources: upstream,
    log,
    freshMs: 30_000,
    staleMs: 600_000,
    now: () => time,
  });
  return { service, upstream, log, advance: (ms: number) => (time += ms) };
}

describe('createMarketService', () => {
  it('asks upstream once for many concurrent callers', async () => {
    const { service, upstream } = setup();
    const answers = await Promise.all(Array.from({ length: 100 }, () => service.current()));
    expect(upstream.dexScreener).toHaveBeenCalledTimes(1);
    expect(answers.every((answer) => answer?.priceUsd === 1)).toBe(true);
    expect(answers[0]?.sparkline).toEqual([[1, 1]]);
  });

  it('serves a stale answer at once while refreshing, and nothing past the stale limit', async () => {
    const { service, upstream, advance } = setup();
    await service.current();
    advance(31_000);
    upstream.dexScreener.mockRejectedValue(new MarketSourceError('down'));
    upstream.geckoTerminal.mockRejectedValue(new MarketSourceError('down'));
    expect((await service.current())?.priceUsd).toBe(1);
    expect(upstream.dexScreener).toHaveBeenCalledTimes(2);
    advance(600_000);
    expect(await service.current()).toBeNull();
  });

  it('falls back to GeckoTerminal and logs a failing source at most once a minute', async () => {
    const { service, upstream, log, advance } = setup();
    upstream.dexScreener.mockRejectedValue(new MarketSourceError('no pair'));
    expect((await service.current())?.source).toBe('GeckoTerminal');
    advance(31_000);
    await service.current();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(log.warn).toHaveBeenCalledTimes(1);
  });

  it('shares an answer through the shared cache: a second instance does not ask upstream', async () => {
    const store = new Map<string, string>();
    const shared = {
      get: async (key: string) => store.get(key) ?? null,
      set: async (key: string, value: string) => store.set(key, value),
    };
    const first = setup();
    const second = setup();
    const options = { shared, sharedKey: 'prefix:market:mint' };
    const [a, b] = [first, second].map(({ upstream, log }) =>
      createMarketService({
        mint: 'mint',
        sources: upstream,
        log,
        freshMs: 30_000,
        staleMs: 600_000,
        ...options,
      }),
    );
    expect((await a?.current())?.priceUsd).toBe(1);
    expect((await b?.current())?.priceUsd).toBe(1);
    expect(first.upstream.dexScreener).toHaveBeenCalledTimes(1);
    expect(second.upstream.dexScreener).not.toHaveBeenCalled();
  });

  it('does not ask again at once after a failure, however many visitors come', async () => {
    const { service, upstream, advance } = setup();
    upstream.dexScreener.mockRejectedValue(new MarketSourceError('429'));
    upstream.geckoTerminal.mockRejectedValue(new MarketSourceError('429'));
    expect(await service.current()).toBeNull();
    for (let i = 0; i < 50; i += 1) expect(await service.current()).toBeNull();
    expect(upstream.dexScreener).toHaveBeenCalledTimes(1);
    advance(10_000);
    upstream.dexScreener.mockResolvedValue(QUOTE);
    expect((await service.current())?.priceUsd).toBe(1);
    expect(upstream.dexScreener).toHaveBeenCalledTimes(2);
  });

  it('refreshes over a shared answer that does not check out (no time, a time ahead, a bad snapshot)', async () => {
    for (const stored of [
      { snapshot: { priceUsd: 9 } },
      { snapshot: { priceUsd: 9 }, fetchedAt: 9e15 },
      { snapshot: 'nonsense', fetchedAt: 1_000_000 },
    ]) {
      const { upstream, log } = setup();
      const shared = { get: async () => JSON.stringify(stored), set: async () => 'OK' };
      const service = createMarketService({
        mint: 'mint',
        sources: upstream,
        log,
        freshMs: 30_000,
        staleMs: 600_000,
        now: () => 1_000_000,
        shared,
        sharedKey: 'prefix:market:mint',
      });
      expect((await service.current())?.priceUsd).toBe(1);
      expect(upstream.dexScreener).toHaveBeenCalledTimes(1);
    }
  });
});
