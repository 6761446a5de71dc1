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

const invalidInput = (message: string): Error => new InvalidInputError(message);

/**
 * parseEnvelope validates a body's outer shape with a schema whose messages are whole sentences: the
 * first problem is the answer, thrown as refuse(message) (an InvalidInputError, 400, unless told).
 */
export function parseEnvelope<S extends z.ZodType>(
  schema: S,
  value: unknown,
  refuse: (message: string) => Error = invalidInput,
): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw refuse(result.error.issues[0]?.message ?? 'The request body is not valid');
  return result.data;
}
