import { z } from 'zod';

/**
 * SECRET_NAME is the spelling of a secret name: it becomes an environment variable of functions
 * (`Deno.env.get(NAME)`), so upper-case letters, digits and underscores, not starting with a digit.
 */
export const SECRET_NAME = /^[A-Z_][A-Z0-9_]{0,63}$/;

/** SecretParamsSchema is `/api/apps/:appId/admin/secrets/:name` (the name's rules are the service's). */
export const SecretParamsSchema = z.object({ appId: z.string().min(1), name: z.string().min(1).max(200) });

/** SecretValueSchema is the body that sets a secret: the value only (its bound is the service's). */
export const SecretValueSchema = z.object({ value: z.string({ error: 'must be a string' }) }).strict();
