import { z } from 'zod';
import type { ConsoleApi } from '../../api/console-api';

// The Analytics page's one call: per-day aggregates the server computed in SQL (never raw rows).

/** ANALYTICS_RANGES are the windows the page offers, in days. */
export const ANALYTICS_RANGES = [7, 30, 90] as const;
export type AnalyticsRange = (typeof ANALYTICS_RANGES)[number];

const count = z.number().int().min(0);
const NamedSeriesSchema = z.object({
  names: z.array(z.string()),
  days: z.array(z.object({ day: z.string(), total: count, byName: z.record(z.string(), count) })),
});
const KeyCountsSchema = z.array(z.object({ key: z.string(), count }));

export const AnalyticsSchema = z.object({
  days: z.number().int(),
  from: z.string(),
  to: z.string(),
  views: z.array(z.object({ day: z.string(), views: count, visitors: count })),
  topPages: KeyCountsSchema,
  topReferrers: KeyCountsSchema,
  events: NamedSeriesSchema,
  tokens: NamedSeriesSchema.extend({ dailyBudget: count }),
  mails: z.array(z.object({ day: z.string(), count })),
});
export type Analytics = z.infer<typeof AnalyticsSchema>;
export type NamedSeries = z.infer<typeof NamedSeriesSchema>;

/** fetchAnalytics reads the last `days` UTC days of the app's analytics. */
export function fetchAnalytics(api: ConsoleApi, days: AnalyticsRange): Promise<Analytics> {
  return api.call(`/admin/analytics?days=${days}`, AnalyticsSchema);
}
