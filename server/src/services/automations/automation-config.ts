import { z } from 'zod';

// The `automations` of a function's `function.jsonc`, as the Base44 CLI writes them: scheduled (one-time,
// cron, simple repeats), entity events and connector webhooks. Loose: unknown keys are kept, never fatal.

const Base = z.looseObject({
  name: z.string().trim().min(1, 'automation name must not be empty').max(200),
  description: z.string().nullish(),
  function_args: z.record(z.string(), z.unknown()).nullish(),
  is_active: z.boolean().optional().default(true),
});

const Ends = {
  ends_type: z.enum(['never', 'on', 'after']).optional().default('never'),
  ends_on_date: z.string().nullish(),
  ends_after_count: z.number().int().positive().nullish(),
};

const OneTime = Base.extend({
  type: z.literal('scheduled'),
  schedule_mode: z.literal('one-time'),
  one_time_date: z.string().min(1, 'one_time_date is required for a one-time schedule'),
});

const Cron = Base.extend({
  type: z.literal('scheduled'),
  schedule_mode: z.literal('recurring'),
  schedule_type: z.literal('cron'),
  cron_expression: z.string().min(1, 'cron_expression is required for a cron schedule').max(200),
  ...Ends,
});

const Simple = Base.extend({
  type: z.literal('scheduled'),
  schedule_mode: z.literal('recurring'),
  schedule_type: z.literal('simple'),
  repeat_unit: z.enum(['minutes', 'hours', 'days', 'weeks', 'months']),
  repeat_interval: z.number().int().positive().max(10_000).nullish(),
  start_time: z.string().nullish(),
  repeat_on_days: z.array(z.number().int().min(0).max(6)).max(7).nullish(),
  repeat_on_day_of_month: z.number().int().min(1).max(31).nullish(),
  ...Ends,
});

const EntityEvent = Base.extend({
  type: z.literal('entity'),
  entity_name: z.string().min(1, 'entity_name must not be empty'),
  event_types: z.array(z.enum(['create', 'update', 'delete'])).min(1, 'list at least one event type'),
});

const Connector = Base.extend({
  type: z.literal('connector'),
  integration_type: z.string(),
  events: z.array(z.string()).optional(),
});

export const AutomationSchema = z.union([OneTime, Cron, Simple, EntityEvent, Connector]);
export const AutomationsSchema = z.array(AutomationSchema).max(100, 'at most 100 automations per function');

export type Automation = z.infer<typeof AutomationSchema>;
export type ScheduledAutomation = z.infer<typeof OneTime> | z.infer<typeof Cron> | z.infer<typeof Simple>;
export type EntityAutomation = z.infer<typeof EntityEvent>;
export type EntityEventType = EntityAutomation['event_types'][number];

/** FunctionAutomations are one function's automations, by its name. */
export interface FunctionAutomations {
  functionName: string;
  automations: Automation[];
}

export const isScheduled = (automation: Automation): automation is ScheduledAutomation =>
  automation.type === 'scheduled';
export const isEntityEvent = (automation: Automation): automation is EntityAutomation =>
  automation.type === 'entity';
