import { z } from 'zod';
import { CustomCallSchema } from './custom-integrations';

/** MAX_TRY_BODY_BYTES bounds the console's "try" of a custom integration operation: a test, not an upload. */
export const MAX_TRY_BODY_BYTES = 64 * 1024;

/** MAX_PRUNE_MIN_AGE_HOURS is the oldest "older than" a prune may ask for (a year). */
export const MAX_PRUNE_MIN_AGE_HOURS = 24 * 365;

/** AdminCustomParamsSchema is `/admin/integrations/custom/:slug/try`. */
export const AdminCustomParamsSchema = z.object({
  appId: z.string().min(1).max(64),
  slug: z.string().min(1).max(200, 'must be at most 200 characters'),
});

/** TryOperationSchema is the console's "try": the operation (`get:/path` or its operationId) and its input. */
export const TryOperationSchema = CustomCallSchema.extend({
  operation: z.string().min(1, 'name the operation').max(1000, 'must be at most 1000 characters'),
});

/**
 * PruneFilesSchema is a prune from the console: dry_run must be said (false removes), and files younger
 * than min_age_hours are kept (24 h by default, as the CLI: a form may not have saved its record yet).
 */
export const PruneFilesSchema = z.strictObject(
  {
    dry_run: z.boolean({ error: 'must be true (list only) or false (remove)' }),
    min_age_hours: z
      .number()
      .min(0, 'must be 0 or more')
      .max(MAX_PRUNE_MIN_AGE_HOURS, `must be at most ${MAX_PRUNE_MIN_AGE_HOURS}`)
      .default(24),
  },
  { error: 'The body must be {"dry_run": true|false, "min_age_hours"?: hours}' },
);
