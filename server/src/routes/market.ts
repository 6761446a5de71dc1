import type { FastifyInstance } from 'fastify';
import { parseInput } from '../lib/validation';
import { MarketQuerySchema } from '../schemas/market';
import type { MarketService } from '../services/market/market-service';

/** MARKET_CACHE_CONTROL lets browsers and CDNs keep an answer briefly: upstream is asked at most every 30 s. */
export const MARKET_CACHE_CONTROL = 'public, max-age=15, stale-while-revalidate=60';

/** registerMarketRoutes adds `GET /api/market`: the configured token's figures, or 404 while none are known. */
export function registerMarketRoutes(app: FastifyInstance, market: MarketService): void {
  // The one configured token only, and no address in the request: no open proxy to the sources.
  app.get('/api/market', async (request, reply) => {
    parseInput(MarketQuerySchema, request.query ?? {});
    const snapshot = await market.current();
    reply.header('cache-control', MARKET_CACHE_CONTROL);
    if (!snapshot) return reply.code(404).send({ message: 'No market figures for this token yet' });
    return snapshot;
  });
}
