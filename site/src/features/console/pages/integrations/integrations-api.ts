import { z } from 'zod';
import type { ConsoleApi } from '../../api/console-api';

// The Integrations page's calls: one summary, and the actions apart (the LLM check, a custom integration
// operation's "try", the files prune).

const LlmCheckSchema = z.object({
  ok: z.boolean(),
  checked_at: z.string(),
  model: z.string(),
  latency_ms: z.number(),
  tokens: z.number(),
  problem: z.string().nullable(),
});
export type LlmCheck = z.infer<typeof LlmCheckSchema>;

const OperationSchema = z.object({
  id: z.string(),
  operation_id: z.string().nullable(),
  method: z.string(),
  path: z.string(),
  params: z.array(z.object({ name: z.string(), in: z.string(), required: z.boolean(), type: z.string() })),
  body: z.enum(['none', 'optional', 'required']),
});
export type Operation = z.infer<typeof OperationSchema>;

const CustomIntegrationSchema = z.object({
  slug: z.string(),
  base_url: z.string(),
  timeout_ms: z.number(),
  auth: z.object({ header: z.string(), secret: z.string(), secret_set: z.boolean() }).nullable(),
  operations_total: z.number(),
  operations: z.array(OperationSchema),
});
export type CustomIntegration = z.infer<typeof CustomIntegrationSchema>;

const SummarySchema = z.object({
  llm: z.object({
    configured: z.boolean(),
    host: z.string().nullable(),
    model: z.string(),
    timeout_ms: z.number(),
    last_check: LlmCheckSchema.nullable(),
  }),
  budget: z.object({
    day_start: z.string(),
    daily_tokens: z.number(),
    service_reserve_percent: z.number(),
    user_daily_tokens: z.number(),
    ip_daily_tokens: z.number(),
    used_tokens: z.number(),
    calls: z.number(),
    by_caller: z.array(z.object({ caller_kind: z.string(), calls: z.number(), tokens: z.number() })),
    top_users: z.array(
      z.object({ user_id: z.string(), email: z.string().nullable(), calls: z.number(), tokens: z.number() }),
    ),
  }),
  mail: z.object({
    mode: z.enum(['smtp', 'outbox']),
    detail: z.string(),
    today: z.object({ sent: z.number(), failed: z.number() }),
    recent: z.array(
      z.object({ sent_at: z.string(), ok: z.boolean(), transport: z.string(), error: z.string().nullable() }),
    ),
  }),
  custom: z.array(CustomIntegrationSchema),
  files: z.object({ storage: z.string(), files: z.number(), bytes: z.number() }),
});
export type IntegrationsSummary = z.infer<typeof SummarySchema>;

const CheckAnswerSchema = z.union([
  LlmCheckSchema.extend({ configured: z.literal(true) }),
  z.object({ configured: z.literal(false) }),
]);

const TryAnswerSchema = z.object({
  operation: z.string(),
  success: z.boolean(),
  status_code: z.number(),
  data: z.string(),
  data_truncated: z.boolean(),
});
export type TryAnswer = z.infer<typeof TryAnswerSchema>;

const PruneAnswerSchema = z.object({
  dry_run: z.boolean(),
  min_age_hours: z.number(),
  count: z.number(),
  bytes: z.number(),
  files: z.array(z.object({ key: z.string(), filename: z.string(), size: z.number() })),
  more: z.boolean(),
});
export type PruneAnswer = z.infer<typeof PruneAnswerSchema>;

/** TryInput is what the "try" form sends besides the operation. */
export interface TryInput {
  path_params?: Record<string, string>;
  query_params?: Record<string, string>;
  payload?: unknown;
}

export const INTEGRATIONS_KEY = ['console', 'integrations'];

/** fetchIntegrations reads the page's summary (no provider or upstream is called). */
export const fetchIntegrations = (api: ConsoleApi) => api.call('/admin/integrations', SummarySchema);

/** checkLlm makes the one tiny call to the LLM provider. */
export const checkLlm = (api: ConsoleApi) =>
  api.call('/admin/integrations/llm/check', CheckAnswerSchema, { method: 'POST', body: '{}' });

/** tryOperation calls one operation of a custom integration with the app's secrets (audited). */
export const tryOperation = (api: ConsoleApi, slug: string, operation: string, input: TryInput) =>
  api.call(`/admin/integrations/custom/${encodeURIComponent(slug)}/try`, TryAnswerSchema, {
    method: 'POST',
    body: JSON.stringify({ operation, ...input }),
  });

/** pruneFiles lists (dryRun) or removes the unreferenced files older than minAgeHours (removal audited). */
export const pruneFiles = (api: ConsoleApi, dryRun: boolean, minAgeHours: number) =>
  api.call('/admin/integrations/files/prune', PruneAnswerSchema, {
    method: 'POST',
    body: JSON.stringify({ dry_run: dryRun, min_age_hours: minAgeHours }),
  });

/** bytesText writes a size for people: bytes, KB, MB or GB (1024-based, as the CLI). */
export function bytesText(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${bytes} bytes` : `${value.toFixed(1)} ${units[unit]}`;
}
