import { z } from 'zod';

// Building blocks of the environment schemas: an empty variable counts as unset, so its default applies.

/** blankAsUndefined turns an empty variable (`FOO=`) into an unset one. */
export const blankAsUndefined = (value: unknown): unknown => (value === '' ? undefined : value);

/** count is a whole number from 1 to max, fallback when unset. */
export const count = (fallback: number, max: number) =>
  z.preprocess(
    blankAsUndefined,
    z.coerce
      .number()
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(max, `must be at most ${max}`)
      .default(fallback),
  );

/** milliseconds is a duration from 100 ms to 10 minutes, fallback when unset. */
export const milliseconds = (fallback: number) =>
  z.preprocess(
    blankAsUndefined,
    z.coerce
      .number()
      .int('must be a whole number of milliseconds')
      .min(100, 'must be at least 100 milliseconds')
      .max(600_000, 'must be at most 600000 milliseconds')
      .default(fallback),
  );
