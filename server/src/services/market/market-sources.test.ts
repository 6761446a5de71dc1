import { describe, expect, it } from 'vitest';
import { chooseDexPair, parseDexScreener, parseGeckoToken, parseOhlcv } from './market-sources';

const MINT = 'So11111111111111111111111111111111111111112';
const POOL_A = '8sLbNZoA1cfnvMJLPfp98ZLAnFSYCFApfJKMbiXNLwxj';
const POOL_B = '58oQChx4yWmvKdwLLZzBi4ChoCc2fqCUWBkwMihLYQo2';

const pair = (overrides: Record<string, unknown>) => ({
  chainId: 'solana',
  pairAddress: POOL_A,
  baseToken: { address: MINT },
  priceUsd: '0.00001234',
  priceChange: { h24: -4.5 },
  volume: { h24: 5000 },
  liquidity: { usd: 1000 },
  fdv: 2_000_000,
  marketCap: 1_200_000,
  ...overrides,
});

describe('chooseDexPair', () => {
  it('takes the solana pair of the mint with the most liquidity', () => {
    const chosen = chooseDexPair(
      [
        pair({ liquidity: { usd: 10 } }),
        pair({ pairAddress: POOL_B, liquidity: { usd: 90_000 } }),
        pair({ chainId: 'ethereum', liquidity: { usd: 10_000_000 } }),
        pair({ baseToken: { address: POOL_B }, liquidity: { usd: 10_000_000 } }),
      ],
      MINT,
    );
    expect(chosen?.pairAddress).toBe(POOL_B);
  });

  it('skips garbage: non-numeric or zero prices, malformed pairs', () => {
    expect(
      chooseDexPair([pair({ priceUsd: 'NaN' }), pair({ priceUsd: '0' }), null, 'x', {}], MINT),
    ).toBeNull();
    const chosen = chooseDexPair([pair({ priceUsd: 'abc', liquidity: { usd: 1e9 } }), pair({})], MINT);
    expect(chosen?.priceUsd).toBe(0.00001234);
  });
});

describe('parseDexScreener', () => {
  it('quotes the chosen pair, with a missing market cap left null (the page shows FDV)', () => {
    const quote = parseDexScreener({ pairs: [pair({ marketCap: undefined })] }, MINT);
    expect(quote).toMatchObject({ priceUsd: 0.00001234, change24h: -4.5, marketCap: null, fdv: 2_000_000 });
    expect(quote.sourceUrl).toBe(`https://dexscreener.com/solana/${POOL_A}`);
  });

  it('fails on no pair, null pairs or another shape', () => {
    expect(() => parseDexScreener({ pairs: null }, MINT)).toThrow(/no usable/);
    expect(() => parseDexScreener({ pairs: 'x' }, MINT)).toThrow(/unexpected/);
  });
});

describe('parseGeckoToken', () => {
  const token = (attributes: Record<string, unknown>) => ({
    data: {
      attributes: {
        price_usd: '0.5',
        fdv_usd: '100',
        market_cap_usd: null,
        volume_usd: { h24: '7' },
        ...attributes,
      },
      relationships: { top_pools: { data: [{ id: `solana_${POOL_A}` }] } },
    },
    included: [{ attributes: { price_change_percentage: { h24: '12.5' } } }],
  });

  it('reads strings as numbers and takes the top pool', () => {
    expect(parseGeckoToken(token({}), MINT)).toMatchObject({
      priceUsd: 0.5,
      change24h: 12.5,
      marketCap: null,
      fdv: 100,
      volume24hUsd: 7,
      poolAddress: POOL_A,
      source: 'GeckoTerminal',
    });
  });

  it('refuses a price of 0 or a non-numeric one', () => {
    expect(() => parseGeckoToken(token({ price_usd: '0' }), MINT)).toThrow();
    expect(() => parseGeckoToken(token({ price_usd: 'lots' }), MINT)).toThrow();
  });
});

describe('parseOhlcv', () => {
  it('keeps valid closes, oldest first, in ms', () => {
    const body = {
      data: {
        attributes: {
          ohlcv_list: [
            [7200, 1, 1, 1, 3, 0],
            [3600, 1, 1, 1, 'x', 0],
            [0, 1, 1, 1, 2, 0],
            [3600, 1, 1, 1, 2, 0],
          ],
        },
      },
    };
    expect(parseOhlcv(body)).toEqual([
      [3_600_000, 2],
      [7_200_000, 3],
    ]);
  });

  it('keeps six significant digits of each close', () => {
    const body = { data: { attributes: { ohlcv_list: [[3600, 1, 1, 1, 0.000013000000000000001, 0]] } } };
    expect(parseOhlcv(body)).toEqual([[3_600_000, 0.000013]]);
    const precise = { data: { attributes: { ohlcv_list: [[3600, 1, 1, 1, '123.456789', 0]] } } };
    expect(parseOhlcv(precise)).toEqual([[3_600_000, 123.457]]);
  });
});
