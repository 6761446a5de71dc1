import { z } from 'zod';

/** RealtimePingSchema is the body of the operator's realtime fan-out check. */
export const RealtimePingSchema = z.object({
  room: z.string().min(1).max(256),
});
