// The coin's live market figures: `GET /api/market` and the figures the Home page is served with. Off with
// MARKET_DATA=off, and idle while the contract address is the shipped placeholder (no source knows it).
import { PLACEHOLDER_CONTRACT_ADDRESS } from '../../../../site/src/config/placeholder';
import type { PublicFetch } from '../../lib/public-fetch';
import { registerMarketRoutes } from '../../routes/market';
import { createMarketService, type MarketService } from '../../services/market/market-service';
import { createMarketSources } from '../../services/market/market-sources';
import type { Part, Shared } from './part';

/** MarketPart is the market service, or null when the page has no live figures to show. */
export interface MarketPart extends Part {
  market: MarketService | null;
}

/** buildMarketPart serves contractAddress's figures, fetched through the outbound guard (fetchPublic). */
export function buildMarketPart(
  shared: Shared,
  files: { fetchPublic: PublicFetch },
  contractAddress: string | undefined,
): MarketPart {
  const { config } = shared;
  if (config.MARKET_DATA === 'off' || !contractAddress || contractAddress === PLACEHOLDER_CONTRACT_ADDRESS) {
    return { name: 'market', market: null };
  }
  const market = createMarketService({
    mint: contractAddress,
    sources: createMarketSources(files.fetchPublic, {
      dexScreener: config.MARKET_DEXSCREENER_URL,
      geckoTerminal: config.MARKET_GECKOTERMINAL_URL,
    }),
    log: shared.logger,
    freshMs: config.MARKET_FRESH_MS,
    staleMs: config.MARKET_STALE_MS,
    shared: shared.sharedCache,
    sharedKey: `${config.REDIS_PREFIX}:market:${contractAddress}`,
  });
  // Fetched once at start, so the first visitor's page already has the figures.
  market.cached();
  return { name: 'market', market, routes: (app) => registerMarketRoutes(app, market) };
}
