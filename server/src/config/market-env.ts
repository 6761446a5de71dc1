import { z } from 'zod';
import { blankAsUndefined, milliseconds } from './env-values';

// The coin's live market figures (`GET /api/market`, the page's market tile): where they come from and how
// long one answer is kept. Base URLs are settings so tests point them at local doubles.

const baseUrl = (fallback: string) =>
  z.preprocess(
    blankAsUndefined,
    z
      .url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' })
      .default(fallback)
      .transform((url) => url.replace(/\/+$/, '')),
  );

/** MarketEnvShape lists the environment variables of the market figures (merged into ServerEnvSchema). */
export const MarketEnvShape = {
  MARKET_DATA: z.preprocess(
    blankAsUndefined,
    z.enum(['on', 'off'], { error: 'must be on or off' }).default('on'),
  ),
  MARKET_DEXSCREENER_URL: baseUrl('https://api.dexscreener.com'),
  MARKET_GECKOTERMINAL_URL: baseUrl('https://api.geckoterminal.com'),
  // How long an answer is fresh, then how long it is still served (stale) while a refresh runs.
  MARKET_FRESH_MS: milliseconds(30_000),
  MARKET_STALE_MS: milliseconds(600_000),
};
