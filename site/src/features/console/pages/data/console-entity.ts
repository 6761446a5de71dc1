import { z } from 'zod';

// One entity as the Data page knows it (GET /admin/entities): shared by the grid, the record editor and the
// toolbar, so each reads the same checked shape.

/** ConsoleEntitySchema is one entry of `GET /admin/entities`. */
export const ConsoleEntitySchema = z.object({
  name: z.string(),
  schema: z.record(z.string(), z.unknown()),
  rules: z.record(z.string(), z.unknown()).nullable(),
});
export type ConsoleEntity = z.infer<typeof ConsoleEntitySchema>;

/** ConsoleEntitiesSchema is the whole answer of `GET /admin/entities`. */
export const ConsoleEntitiesSchema = z.object({ entities: z.array(ConsoleEntitySchema) });

/** EntityCountsSchema is the answer of `GET /admin/entities/counts`: records per entity name. */
export const EntityCountsSchema = z.object({ counts: z.record(z.string(), z.number()) });
