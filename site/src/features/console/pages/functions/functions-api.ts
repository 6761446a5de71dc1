import { z } from 'zod';
import type { ConsoleApi } from '../../api/console-api';

// The Functions page's calls: the list (24 h figures, automations, schedules), a test call, "run now".

const AutomationSchema = z.object({
  name: z.string(),
  type: z.string(),
  is_active: z.boolean(),
  definition: z.record(z.string(), z.unknown()),
  next_run_at: z.string().nullable(),
  last_run_at: z.string().nullable(),
  runs: z.number(),
});

const ConsoleFunctionSchema = z.object({
  name: z.string(),
  calls: z.number(),
  error_rate: z.number().nullable(),
  p50_ms: z.number().nullable(),
  p95_ms: z.number().nullable(),
  last_status: z.number().nullable(),
  last_at: z.string().nullable(),
  automations: z.array(AutomationSchema),
  last_runs: z.array(z.object({ status: z.number(), duration_ms: z.number(), logged_at: z.string() })),
});
export type ConsoleFunction = z.infer<typeof ConsoleFunctionSchema>;
export type ConsoleAutomation = z.infer<typeof AutomationSchema>;

const InvokeAnswerSchema = z.object({
  request_id: z.string(),
  status: z.number(),
  headers: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
  body: z.string(),
  body_truncated: z.boolean(),
  output: z.array(z.object({ stream: z.string(), line: z.string() })),
  output_dropped: z.number(),
  duration_ms: z.number().nullable(),
});
export type InvokeAnswer = z.infer<typeof InvokeAnswerSchema>;

const RunNowSchema = z.object({ status: z.number(), ok: z.boolean(), detail: z.string().nullable() });

export const FUNCTIONS_KEY = ['console', 'functions'];

/** fetchFunctions lists the project's functions with their last 24 h and their automations. */
export async function fetchFunctions(api: ConsoleApi): Promise<ConsoleFunction[]> {
  return (await api.call('/admin/functions', z.object({ functions: z.array(ConsoleFunctionSchema) })))
    .functions;
}

/** invokeFunction calls name with body, as the signed-in admin or as the user asUserId. */
export function invokeFunction(api: ConsoleApi, name: string, body: unknown, asUserId: string | null) {
  return api.call(`/admin/functions/${encodeURIComponent(name)}/invoke`, InvokeAnswerSchema, {
    method: 'POST',
    body: JSON.stringify(asUserId ? { body, as_user_id: asUserId } : { body }),
  });
}

/** runScheduleNow runs one schedule of name once (audited). */
export function runScheduleNow(api: ConsoleApi, name: string, automation: string) {
  const path = `/admin/functions/${encodeURIComponent(name)}/schedules/${encodeURIComponent(automation)}/run`;
  return api.call(path, RunNowSchema, { method: 'POST', body: '{}' });
}
