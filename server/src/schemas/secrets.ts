import { z } from 'zod';

/** SecretParamsSchema is `/api/apps/:appId/admin/secrets/:name` (the name's rules are the service's). */
export const SecretParamsSchema = z.object({ appId: z.string().min(1), name: z.string().min(1).max(200) });

/** SecretValueSchema is the body that sets a secret: the value only (its bound is the service's). */
export const SecretValueSchema = z.object({ value: z.string({ error: 'must be a string' }) }).strict();
