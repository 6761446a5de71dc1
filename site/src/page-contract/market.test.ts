import { describe, expect, it } from 'vitest';
import {
  formatAge,
  formatCompactUsd,
  formatMarketFigures,
  formatPrice,
  parseMarketSnapshot,
  sparklinePoints,
} from './market';

const SNAPSHOT = {
  priceUsd: 0.00001234,
  change24h: -3.21,
  marketCap: null,
  fdv: 1_234_567,
  liquidityUsd: 45_000,
  volume24hUsd: null,
  sparkline: [
    [0, 1],
    [1, 2],
  ],
  updatedAt: '2026-01-01T00:00:00.000Z',
  source: 'DexScreener',
  sourceUrl: 'https://dexscreener.com/solana/x',
};

describe('market wording', () => {
  it('gives tiny prices significant digits grouped in threes, larger ones cents', () => {
    expect(formatPrice(0.00001234, 'en-US')).toBe('$0.000\u2009012\u200934');
    expect(formatPrice(0.5, 'en-US')).toBe('$0.5');
    expect(formatPrice(1234.567, 'en-US')).toBe('$1,234.57');
    expect(formatPrice(0.00001234, 'de-DE')).toMatch(/^0,000\u2009012\u200934\s\$$/);
  });

  it('words large amounts compactly in the locale, and a missing one as a dash', () => {
    expect(formatCompactUsd(1_234_567, 'en-US')).toBe('$1.2M');
    expect(formatCompactUsd(90_000, 'en-US')).toBe('$90K');
    expect(formatCompactUsd(null, 'en-US')).toBe('—');
  });

  it('says the age in seconds, then minutes', () => {
    expect(formatAge(12_400)).toBe('12 s ago');
    expect(formatAge(185_000)).toBe('3 min ago');
  });

  it('labels FDV when there is no market cap, and words a fall as down', () => {
    const snapshot = parseMarketSnapshot(SNAPSHOT);
    if (!snapshot) throw new Error('the sample snapshot is valid');
    const figures = formatMarketFigures(snapshot, 'en-US', Date.parse(SNAPSHOT.updatedAt) + 5000);
    expect(figures).toMatchObject({
      capLabel: 'FDV',
      cap: '$1.2M',
      change: '-3.2%',
      trend: 'down',
      arrow: '▼',
      trendWord: 'down',
      volume: '—',
      age: '5 s ago',
    });
  });

  it('draws the sparkline in its box and refuses malformed answers', () => {
    expect(
      sparklinePoints([
        [0, 1],
        [10, 3],
        [20, 2],
      ]),
    ).toBe('0,32 50,0 100,16');
    expect(sparklinePoints([[0, 1]])).toBe('');
    expect(parseMarketSnapshot({ ...SNAPSHOT, priceUsd: 0 })).toBeNull();
    expect(parseMarketSnapshot({ ...SNAPSHOT, sourceUrl: 'javascript:alert(1)' })).toBeNull();
    expect(parseMarketSnapshot('x')).toBeNull();
  });
});
