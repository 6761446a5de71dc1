import { z } from 'zod';
import { blankAsUndefined } from './env-values';

// Outbound requests to URLs a caller chose (file URLs for integrations, custom integration upstreams) reach
// public addresses only; an operator may name private `host:port` pairs it trusts (an intranet file server,
// a test double).

const HOST_PORT = /^[A-Za-z0-9.-]+:\d{1,5}$|^\[[0-9A-Fa-f:.]+\]:\d{1,5}$/;

/** OutboundEnvShape lists the environment variables of outbound requests (merged into ServerEnvSchema). */
export const OutboundEnvShape = {
  OUTBOUND_PRIVATE_HOSTS: z.preprocess(
    blankAsUndefined,
    z
      .string()
      .default('')
      .transform((value, context) => {
        const entries = value.split(/[\s,]+/).filter(Boolean);
        const bad = entries.find((entry) => !HOST_PORT.test(entry));
        if (bad !== undefined || entries.length > 100) {
          context.addIssue({
            code: 'custom',
            message: `must list host:port pairs separated by commas (not ${JSON.stringify((bad ?? '').slice(0, 60))})`,
          });
          return z.NEVER;
        }
        return entries.map((entry) => entry.toLowerCase());
      }),
  ),
};
