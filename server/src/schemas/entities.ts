import { z } from 'zod';

const whole = (name: string) =>
  z
    .string()
    .regex(/^\d{1,9}$/, `${name} must be a whole number ≥ 0`)
    .transform(Number)
    .optional();

/** EntityParamsSchema is `/api/apps/:appId/entities/:entity`; names are checked by the service (404). */
export const EntityParamsSchema = z.object({ appId: z.string().min(1), entity: z.string().min(1).max(128) });

/** RecordParamsSchema adds the record id. */
export const RecordParamsSchema = EntityParamsSchema.extend({ id: z.string().min(1) });

/** ListQuerySchema is the query string of a list, filter or count: `q` is JSON, `fields` a comma list. */
export const ListQuerySchema = z.object({
  q: z.string().optional(),
  sort: z.string().max(512).optional(),
  limit: whole('limit'),
  skip: whole('skip'),
  fields: z
    .string()
    .max(4096)
    .transform((value) =>
      value
        .split(',')
        .map((field) => field.trim())
        .filter(Boolean),
    )
    .optional(),
});

/** PageQuerySchema is the query string of a v2 list: a list query plus `cursor` and `distinct`. */
export const PageQuerySchema = ListQuerySchema.omit({ skip: true }).extend({
  cursor: z.string().max(16_384).optional(),
  distinct: z.string().min(1).max(512).optional(),
});
