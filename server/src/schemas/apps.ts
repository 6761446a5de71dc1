import { z } from 'zod';

/** AppParamsSchema is any route under `/api/apps/:appId`. */
export const AppParamsSchema = z.object({ appId: z.string().min(1) });

/** LlmUsageQuerySchema is the query of the operator's LLM usage list. */
export const LlmUsageQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(1000, 'must be at most 1000')
    .default(100),
});

/** AuditLogQuerySchema is the query of the operator's audit log: a page of at most 500, older than `before`. */
export const AuditLogQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(500, 'must be at most 500')
    .default(100),
  before: z.iso.datetime({ offset: true, error: 'must be an ISO date-time' }).optional(),
});
