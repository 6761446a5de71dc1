// The coin's market figures as `GET /api/market` answers them, and how they are worded: by the server for
// the first HTML (locale "en-US", its own clock), then by the page's market-refresh chunk in the visitor's
// locale. Browser-safe; not part of the page's hydration script.

/** MarketSource names the provider that answered. */
export type MarketSource = 'DexScreener' | 'GeckoTerminal';

/** MarketSnapshot is one answer of `GET /api/market`; a figure a source lacks is null. */
export interface MarketSnapshot {
  priceUsd: number;
  /** change24h is the 24 h price change in percent. */
  change24h: number | null;
  marketCap: number | null;
  fdv: number | null;
  liquidityUsd: number | null;
  volume24hUsd: number | null;
  /** sparkline is the last 24 h of hourly closes, oldest first: `[unix ms, price]`. */
  sparkline: [number, number][];
  /** updatedAt is when the figures were fetched (ISO 8601). */
  updatedAt: string;
  source: MarketSource;
  sourceUrl: string;
}

/** MarketFigures are a snapshot's figures worded for people; the tile shows them as they are. */
export interface MarketFigures {
  price: string;
  change: string;
  trend: 'up' | 'down';
  /** arrow is ▲ or ▼ (hidden from screen readers, which read trendWord: "up" or "down"). */
  arrow: string;
  trendWord: string;
  /** capLabel is "Market cap", or "FDV" when the source has no market cap. */
  capLabel: string;
  cap: string;
  liquidity: string;
  volume: string;
  /** spark is an SVG polyline's points in a 100 × 32 box ("" without enough candles). */
  spark: string;
  age: string;
  source: string;
  sourceUrl: string;
}

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const orNull = (value: unknown) => (isNumber(value) ? value : null);

/** parseMarketSnapshot checks an answer (boot data or `/api/market`); anything malformed is null. */
export function parseMarketSnapshot(value: unknown): MarketSnapshot | null {
  const raw = value as Partial<Record<keyof MarketSnapshot, unknown>> | null;
  if (typeof raw !== 'object' || raw === null || !isNumber(raw.priceUsd) || raw.priceUsd <= 0) return null;
  if (raw.source !== 'DexScreener' && raw.source !== 'GeckoTerminal') return null;
  if (typeof raw.sourceUrl !== 'string' || !/^https:\/\//.test(raw.sourceUrl)) return null;
  if (typeof raw.updatedAt !== 'string' || Number.isNaN(Date.parse(raw.updatedAt))) return null;
  const points = Array.isArray(raw.sparkline) ? (raw.sparkline as unknown[]) : [];
  return {
    priceUsd: raw.priceUsd,
    change24h: orNull(raw.change24h),
    marketCap: orNull(raw.marketCap),
    fdv: orNull(raw.fdv),
    liquidityUsd: orNull(raw.liquidityUsd),
    volume24hUsd: orNull(raw.volume24hUsd),
    sparkline: points.filter(
      (point): point is [number, number] =>
        Array.isArray(point) && isNumber(point[0]) && isNumber(point[1]) && point[1] > 0,
    ),
    updatedAt: raw.updatedAt,
    source: raw.source,
    sourceUrl: raw.sourceUrl,
  };
}

/** SERVED_MARKET_LOCALE is the locale the server words the figures in, in the HTML it serves. */
export const SERVED_MARKET_LOCALE = 'en-US';

const usd = (locale: string, options: Intl.NumberFormatOptions) =>
  new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD', ...options });

/**
 * formatPrice words a USD price with 4 significant digits; below a cent the decimals are grouped in threes
 * with thin spaces, so `0.00001234` reads `$0.000 012 34`.
 */
export function formatPrice(price: number, locale: string): string {
  const options = price < 1 ? { maximumSignificantDigits: 4 } : { maximumFractionDigits: 2 };
  const parts = usd(locale, options).formatToParts(price);
  return parts
    .map(({ type, value }) =>
      type === 'fraction' && price < 0.01 ? (value.match(/.{1,3}/g) ?? []).join('\u2009') : value,
    )
    .join('');
}

/** formatCompactUsd words a large USD amount compactly (`$1.2M`); null is "—". */
export function formatCompactUsd(amount: number | null, locale: string): string {
  if (amount === null) return '—';
  return usd(locale, { notation: 'compact', minimumFractionDigits: 0, maximumFractionDigits: 1 }).format(
    amount,
  );
}

/** formatAge words how long ago a time was: "12 s ago", "3 min ago", "2 h ago". */
export function formatAge(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  return `${Math.floor(seconds / 3600)} h ago`;
}

/** sparklinePoints scales [t, price] pairs into a width × height box (y grows downwards). */
export function sparklinePoints(series: readonly [number, number][], width = 100, height = 32): string {
  if (series.length < 2) return '';
  const times = series.map(([t]) => t);
  const prices = series.map(([, p]) => p);
  const [t0, t1] = [Math.min(...times), Math.max(...times)];
  const [low, high] = [Math.min(...prices), Math.max(...prices)];
  const x = (t: number) => (t1 > t0 ? ((t - t0) / (t1 - t0)) * width : 0);
  const y = (p: number) => (high > low ? height - ((p - low) / (high - low)) * height : height / 2);
  return series.map(([t, p]) => `${+x(t).toFixed(1)},${+y(p).toFixed(1)}`).join(' ');
}

/** formatMarketFigures words a snapshot for a locale at a moment (`now`, ms since the epoch). */
export function formatMarketFigures(market: MarketSnapshot, locale: string, now: number): MarketFigures {
  const change = market.change24h ?? 0;
  const hasCap = market.marketCap !== null;
  return {
    price: formatPrice(market.priceUsd, locale),
    change: new Intl.NumberFormat(locale, {
      style: 'percent',
      maximumFractionDigits: 1,
      signDisplay: 'exceptZero',
    }).format(change / 100),
    trend: change < 0 ? 'down' : 'up',
    arrow: change < 0 ? '▼' : '▲',
    trendWord: change < 0 ? 'down' : 'up',
    capLabel: hasCap ? 'Market cap' : 'FDV',
    cap: formatCompactUsd(hasCap ? market.marketCap : market.fdv, locale),
    liquidity: formatCompactUsd(market.liquidityUsd, locale),
    volume: formatCompactUsd(market.volume24hUsd, locale),
    spark: sparklinePoints(market.sparkline),
    age: formatAge(now - Date.parse(market.updatedAt)),
    source: market.source,
    sourceUrl: market.sourceUrl,
  };
}

/** MARKET_FIGURE_KEYS are the figures the tile shows, in the order its fragments are filled. */
export const MARKET_FIGURE_KEYS = [
  'price',
  'change',
  'trend',
  'arrow',
  'trendWord',
  'capLabel',
  'cap',
  'liquidity',
  'volume',
  'spark',
  'age',
  'source',
  'sourceUrl',
] as const satisfies readonly (keyof MarketFigures)[];

/** marketToken is the stand-in for a figure in the build's live fragments (build-info.json). */
export const marketToken = (key: keyof MarketFigures) => `__APP_MARKET_${key}__`;
