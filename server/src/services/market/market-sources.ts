// The two market sources, read as hostile input: every answer is size-capped and time-boxed by the outbound
// guard, parsed with zod, and every figure checked (a finite number, a price above 0) before use. Sources
// and response paths: docs/market.md (DexScreener first, GeckoTerminal as the fallback and for the candles).
import { z } from 'zod';
import type { PublicFetch } from '../../lib/public-fetch';
import type { MarketSnapshot } from '../../../../site/src/page-contract/market';

/** MARKET_FETCH_LIMITS bound each upstream exchange: a token answer is a few kilobytes. */
export const MARKET_FETCH_LIMITS = { timeoutMs: 5_000, maxBytes: 512 * 1024 };

/** MarketSourceError is a source that failed or answered nonsense; the service skips it and logs why. */
export class MarketSourceError extends Error {
  override name = 'MarketSourceError';
}

/** MarketQuote is a snapshot without its time, plus the pool whose candles draw the sparkline. */
export type MarketQuote = Omit<MarketSnapshot, 'sparkline' | 'updatedAt'> & { poolAddress: string | null };

// Upstream sends numbers as numbers or as strings ("0.00001234"); anything else counts as missing.
const looseNumber = z.unknown().transform((value) => {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) ? number : null;
});
const positive = looseNumber.transform((value) => (value !== null && value > 0 ? value : null));
const ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const address = z.string().regex(ADDRESS);

const DexPairSchema = z.object({
  chainId: z.string(),
  pairAddress: address,
  baseToken: z.object({ address: z.string() }),
  priceUsd: positive,
  priceChange: z.object({ h24: looseNumber }).partial().nullish(),
  volume: z.object({ h24: positive }).partial().nullish(),
  liquidity: z.object({ usd: positive }).partial().nullish(),
  fdv: positive.optional(),
  marketCap: positive.optional(),
});
type DexPair = z.infer<typeof DexPairSchema>;

const DexAnswerSchema = z.object({ pairs: z.array(z.unknown()).max(500).nullish() });

/**
 * chooseDexPair is the pair to quote: of the `solana` pairs whose base token is mint and whose price is a
 * positive number, the one with the most USD liquidity (none: null). Malformed pairs are skipped.
 */
export function chooseDexPair(pairs: readonly unknown[], mint: string): DexPair | null {
  let best: DexPair | null = null;
  for (const raw of pairs) {
    const parsed = DexPairSchema.safeParse(raw);
    if (!parsed.success) continue;
    const pair = parsed.data;
    if (pair.chainId !== 'solana' || pair.baseToken.address !== mint || pair.priceUsd === null) continue;
    if (!best || (pair.liquidity?.usd ?? 0) > (best.liquidity?.usd ?? 0)) best = pair;
  }
  return best;
}

/** parseDexScreener reads a `/latest/dex/tokens/{mint}` answer into a quote, or throws MarketSourceError. */
export function parseDexScreener(body: unknown, mint: string): MarketQuote {
  const answer = DexAnswerSchema.safeParse(body);
  if (!answer.success) throw new MarketSourceError('DexScreener answered an unexpected shape');
  const pair = chooseDexPair(answer.data.pairs ?? [], mint);
  if (!pair?.priceUsd) throw new MarketSourceError('DexScreener has no usable solana pair for the token');
  return {
    priceUsd: pair.priceUsd,
    change24h: pair.priceChange?.h24 ?? null,
    marketCap: pair.marketCap ?? null,
    fdv: pair.fdv ?? null,
    liquidityUsd: pair.liquidity?.usd ?? null,
    volume24hUsd: pair.volume?.h24 ?? null,
    source: 'DexScreener',
    // Built from the checked address rather than the answer's own `url`, which is not ours to trust.
    sourceUrl: `https://dexscreener.com/solana/${pair.pairAddress}`,
    poolAddress: pair.pairAddress,
  };
}

const GeckoTokenSchema = z.object({
  data: z.object({
    attributes: z.object({
      price_usd: positive,
      fdv_usd: positive.optional(),
      market_cap_usd: positive.optional(),
      total_reserve_in_usd: positive.optional(),
      volume_usd: z.object({ h24: positive }).partial().nullish(),
    }),
    relationships: z
      .object({ top_pools: z.object({ data: z.array(z.object({ id: z.string() })).max(100) }) })
      .partial()
      .nullish(),
  }),
  included: z
    .array(
      z.object({
        attributes: z.object({ price_change_percentage: z.object({ h24: looseNumber }).partial().nullish() }),
      }),
    )
    .max(100)
    .nullish(),
});

/** parseGeckoToken reads a `/networks/solana/tokens/{mint}?include=top_pools` answer into a quote. */
export function parseGeckoToken(body: unknown, mint: string): MarketQuote {
  const answer = GeckoTokenSchema.safeParse(body);
  const attributes = answer.data?.data.attributes;
  if (!answer.success || !attributes?.price_usd) {
    throw new MarketSourceError('GeckoTerminal answered no usable price for the token');
  }
  const topPool = answer.data.data.relationships?.top_pools?.data[0]?.id.replace(/^solana_/, '') ?? '';
  const poolAddress = ADDRESS.test(topPool) ? topPool : null;
  return {
    priceUsd: attributes.price_usd,
    change24h: answer.data.included?.[0]?.attributes.price_change_percentage?.h24 ?? null,
    marketCap: attributes.market_cap_usd ?? null,
    fdv: attributes.fdv_usd ?? null,
    liquidityUsd: attributes.total_reserve_in_usd ?? null,
    volume24hUsd: attributes.volume_usd?.h24 ?? null,
    source: 'GeckoTerminal',
    sourceUrl: poolAddress
      ? `https://www.geckoterminal.com/solana/pools/${poolAddress}`
      : `https://www.geckoterminal.com/solana/tokens/${mint}`,
    poolAddress,
  };
}

const OhlcvSchema = z.object({
  data: z.object({ attributes: z.object({ ohlcv_list: z.array(z.array(z.unknown())).max(1000) }) }),
});

/**
 * SPARKLINE_DIGITS are the significant digits a sparkline's price keeps: far finer than it is drawn, and
 * upstream floats (`0.000012345678901234`) would otherwise fill the page's first flight.
 */
const SPARKLINE_DIGITS = 6;

/** parseOhlcv reads hourly candles (newest first upstream) into `[unix ms, close]`, oldest first. */
export function parseOhlcv(body: unknown): [number, number][] {
  const answer = OhlcvSchema.safeParse(body);
  if (!answer.success) throw new MarketSourceError('GeckoTerminal answered unexpected candles');
  const points: [number, number][] = [];
  for (const candle of answer.data.data.attributes.ohlcv_list) {
    const time = looseNumber.parse(candle[0]);
    const close = positive.parse(candle[4]);
    if (time !== null && time > 0 && close !== null)
      points.push([time * 1000, Number(close.toPrecision(SPARKLINE_DIGITS))]);
  }
  return points.sort((a, b) => a[0] - b[0]).slice(-48);
}

/** MarketSourceUrls are the two providers' base URLs (settings, so tests use local doubles). */
export interface MarketSourceUrls {
  dexScreener: string;
  geckoTerminal: string;
}

/** createMarketSources fetches and parses the providers' answers through the outbound guard. */
export function createMarketSources(fetchPublic: PublicFetch, urls: MarketSourceUrls) {
  async function getJson(url: string, name: string): Promise<unknown> {
    const answer = await fetchPublic({
      url,
      headers: { accept: 'application/json' },
      ...MARKET_FETCH_LIMITS,
    });
    if (answer.status !== 200) throw new MarketSourceError(`${name} answered HTTP ${answer.status}`);
    try {
      return JSON.parse(answer.body.toString('utf8')) as unknown;
    } catch {
      throw new MarketSourceError(`${name} answered something that is not JSON`);
    }
  }
  const mintPath = (mint: string) => encodeURIComponent(mint);
  return {
    async dexScreener(mint: string): Promise<MarketQuote> {
      const body = await getJson(`${urls.dexScreener}/latest/dex/tokens/${mintPath(mint)}`, 'DexScreener');
      return parseDexScreener(body, mint);
    },
    async geckoTerminal(mint: string): Promise<MarketQuote> {
      const url = `${urls.geckoTerminal}/api/v2/networks/solana/tokens/${mintPath(mint)}?include=top_pools`;
      return parseGeckoToken(await getJson(url, 'GeckoTerminal'), mint);
    },
    async candles(pool: string): Promise<[number, number][]> {
      const url = `${urls.geckoTerminal}/api/v2/networks/solana/pools/${mintPath(pool)}/ohlcv/hour?aggregate=1&limit=24`;
      return parseOhlcv(await getJson(url, 'GeckoTerminal candles'));
    },
  };
}

/** MarketSources is what createMarketSources returns (the service's upstream). */
export type MarketSources = ReturnType<typeof createMarketSources>;
