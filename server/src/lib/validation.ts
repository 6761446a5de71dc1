import type { z } from 'zod';
import { InvalidInputError } from './errors';

/** formatIssues turns zod issues into one line per field, e.g. `events.0.event_name: Required`. */
export function formatIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const field = issue.path.map(String).join('.');
      return field ? `${field}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

/** parseInput validates value with schema and throws an InvalidInputError naming each bad field. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new InvalidInputError(formatIssues(result.error));
  return result.data;
}
