import { z } from 'zod';

/** AppParamsSchema is any route under `/api/apps/:appId`. */
export const AppParamsSchema = z.object({ appId: z.string().min(1) });
