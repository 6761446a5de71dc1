import { z } from 'zod';

/**
 * SECRET_NAME is the spelling of a secret name: it becomes an environment variable of functions
 * (`Deno.env.get(NAME)`), so letters, digits and underscores, not starting with a digit. Apps name theirs in
 * upper case (RESEND_API_KEY); the Base44 CLI names sign-in and connector credentials in lower case
 * (`google_oauth_client_secret`), so both are accepted.
 */
export const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** SecretParamsSchema is `/api/apps/:appId/admin/secrets/:name` (the name's rules are the service's). */
export const SecretParamsSchema = z.object({ appId: z.string().min(1), name: z.string().min(1).max(200) });

/** SecretValueSchema is the body that sets a secret: the value only (its bound is the service's). */
export const SecretValueSchema = z.object({ value: z.string({ error: 'must be a string' }) }).strict();
