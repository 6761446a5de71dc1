import { z } from 'zod';

/** AnalyticsQuerySchema is the Analytics page's window: 7, 30 or 90 days (default 30). */
export const AnalyticsQuerySchema = z.object({
  days: z.enum(['7', '30', '90'], { error: 'must be 7, 30 or 90' }).default('30').transform(Number),
});
