import { z } from 'zod';

/** ConsoleEntitySchema is one entity as the console lists it: name, record count, JSON schema and rules. */
export const ConsoleEntitySchema = z.object({
  name: z.string(),
  records: z.number(),
  schema: z.record(z.string(), z.unknown()),
  rules: z.record(z.string(), z.unknown()).nullable(),
});

/** ConsoleEntity is one entity of the app, as GET /admin/entities lists it. */
export type ConsoleEntity = z.infer<typeof ConsoleEntitySchema>;
