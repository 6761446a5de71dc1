import { z } from 'zod';

/** TrackEventSchema is one event of an SDK analytics batch. */
export const TrackEventSchema = z.object({
  event_name: z
    .string({ error: 'must be a string' })
    .min(1, 'must not be empty')
    .max(200, 'must be at most 200 characters'),
  properties: z.record(z.string(), z.unknown(), { error: 'must be an object' }).nullish(),
  timestamp: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time string' }).nullish(),
  page_url: z
    .string({ error: 'must be a string or null' })
    .max(2048, 'must be at most 2048 characters')
    .nullish(),
  user_id: z
    .string({ error: 'must be a string or null' })
    .max(256, 'must be at most 256 characters')
    .nullish(),
  session_id: z
    .string({ error: 'must be a string or null' })
    .max(256, 'must be at most 256 characters')
    .nullish(),
});

/** TrackBatchSchema is the body of `POST /api/apps/:appId/analytics/track/batch`. */
export const TrackBatchSchema = z.object(
  {
    events: z
      .array(TrackEventSchema, { error: 'must be an array of events' })
      .min(1, 'must hold at least 1 event')
      .max(100, 'must hold at most 100 events'),
  },
  { error: 'the body must be a JSON object like {"events": [...]}' },
);

export type TrackBatch = z.infer<typeof TrackBatchSchema>;
