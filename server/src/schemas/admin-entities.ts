import { z } from 'zod';
import { EntityParamsSchema, ListQuerySchema, MAX_LIST_LIMIT } from './entities';

/** ViewAsParamsSchema is `/admin/entities/:entity/view-as/:userId`. */
export const ViewAsParamsSchema = EntityParamsSchema.extend({ userId: z.string().min(1).max(128) });

/** ViewAsQuerySchema is the list route's query, with `limit` refused past the list route's maximum. */
export const ViewAsQuerySchema = ListQuerySchema.extend({
  limit: z
    .string()
    .regex(/^\d{1,9}$/, 'limit must be a whole number ≥ 0')
    .transform(Number)
    .refine((limit) => limit <= MAX_LIST_LIMIT, `limit must be at most ${MAX_LIST_LIMIT}`)
    .optional(),
});
