import { createHmac, hash } from 'node:crypto';

/** VISITOR_KEY_LENGTH is the stored key's length: 128 bits of a SHA-256, base64url. */
const VISITOR_KEY_LENGTH = 22;

/**
 * createVisitorKeys counts distinct visitors without storing who they are: a visitor key is a keyed hash
 * of app, IP and user agent under a key that changes every UTC day (derived from the server's secret, so
 * every instance computes the same key for one visitor on one day). Keys of different days cannot be
 * linked to each other or to an IP without that secret; the IP itself is never stored.
 */
export function createVisitorKeys(secret: string) {
  let cached: { day: string; key: string } | null = null;

  function dayKey(day: string): string {
    if (cached?.day !== day) {
      const key = createHmac('sha256', secret).update(`app-logs visitor key ${day}`).digest('hex');
      cached = { day, key };
    }
    return cached.key;
  }

  return {
    /** keyFor is the visitor key of a view of appId from ip with userAgent on day (YYYY-MM-DD, UTC). */
    keyFor(appId: string, ip: string, userAgent: string, day: string): string {
      // SHA-256 of the secret day key and the fields: a pseudonym, not a signature, so the one-shot hash
      // (a third of an HMAC's cost on every page view) is enough; nothing can be learnt without the key.
      return hash('sha256', `${dayKey(day)}\u0000${appId}\u0000${ip}\u0000${userAgent}`, 'base64url').slice(
        0,
        VISITOR_KEY_LENGTH,
      );
    },
  };
}

export type VisitorKeys = ReturnType<typeof createVisitorKeys>;
