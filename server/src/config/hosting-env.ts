import { z } from 'zod';
import { blankAsUndefined } from './env-values';

// Hosting an app whose front end is served elsewhere (the late-2025 Base44 template calls the API at
// `serverUrl`, cross-origin, from `vite preview` or a CDN): which origins may call with credentials and be
// sent back to after sign-in and sign-out.

/** ORIGIN_ENTRY is one allowed origin as the operator writes it: scheme, host and optional port only. */
const ORIGIN_ENTRY =
  /^https?:\/\/[A-Za-z0-9.-]+(?::\d{1,5})?\/?$|^https?:\/\/\[[0-9A-Fa-f:.]+\](?::\d{1,5})?\/?$/;

/**
 * parseOrigins reads a list of http(s) origins separated by commas or spaces into their canonical form
 * (`https://app.example.com`, default ports dropped), or null when an entry is not a bare origin (a path,
 * a wildcard, `*` or `null` are refused: credentials are only ever granted to named origins).
 */
export function parseOrigins(value: string): string[] | null {
  const entries = value.split(/[\s,]+/).filter(Boolean);
  if (entries.length > 100) return null;
  const origins = new Set<string>();
  for (const entry of entries) {
    if (!ORIGIN_ENTRY.test(entry)) return null;
    try {
      origins.add(new URL(entry).origin);
    } catch {
      return null;
    }
  }
  return [...origins];
}

/** HostingEnvShape lists the environment variables of hosting an app (merged into ServerEnvSchema). */
export const HostingEnvShape = {
  CORS_ORIGINS: z.preprocess(
    blankAsUndefined,
    z
      .string()
      .default('')
      .transform((value, context) => {
        const origins = parseOrigins(value);
        if (origins === null) {
          context.addIssue({
            code: 'custom',
            message:
              'must be http(s) origins separated by spaces or commas, e.g. "http://localhost:4173 https://app.example.com" (no paths, no wildcards)',
          });
          return z.NEVER;
        }
        return origins;
      }),
  ),
};
