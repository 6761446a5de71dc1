import { z } from 'zod';

/** MarketQuerySchema is `GET /api/market`'s query: none. The route serves one token, so it takes no address. */
export const MarketQuerySchema = z.object({}).strict();
