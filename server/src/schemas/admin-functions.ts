import { z } from 'zod';

/** MAX_INVOKE_BODY_CHARS bounds the console's test call body (as JSON text): a test, not an upload. */
export const MAX_INVOKE_BODY_CHARS = 256 * 1024;

const name = z
  .string()
  .min(1)
  .max(200, 'must be at most 200 characters')
  .regex(/^[A-Za-z0-9_-]+$/, 'must be a function name');

/** AdminFunctionParamsSchema is `/admin/functions/:name`. */
export const AdminFunctionParamsSchema = z.object({ appId: z.string().min(1).max(64), name });

/** AdminScheduleParamsSchema is `/admin/functions/:name/schedules/:automation/run`. */
export const AdminScheduleParamsSchema = AdminFunctionParamsSchema.extend({
  automation: z.string().min(1).max(200, 'must be at most 200 characters'),
});

/** InvokeFunctionSchema is the console's test call: the JSON body sent, and optionally the user to call as. */
export const InvokeFunctionSchema = z.object(
  {
    body: z.unknown().refine((value) => JSON.stringify(value ?? null).length <= MAX_INVOKE_BODY_CHARS, {
      message: `must be at most ${MAX_INVOKE_BODY_CHARS} characters of JSON`,
    }),
    as_user_id: z.string().min(1).max(256, 'must be at most 256 characters').optional(),
  },
  { error: 'The body must be a JSON object: {"body": ..., "as_user_id"?: "..."}' },
);
