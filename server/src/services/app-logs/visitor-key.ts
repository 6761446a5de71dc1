import { createHmac } from 'node:crypto';

/** VISITOR_KEY_LENGTH is the stored key's length: 128 bits of an HMAC-SHA256, base64url. */
const VISITOR_KEY_LENGTH = 22;

/** utcDay is the UTC calendar day of a time, YYYY-MM-DD. */
export function utcDay(time: Date): string {
  return time.toISOString().slice(0, 10);
}

/**
 * createVisitorKeys counts distinct visitors without storing who they are: a visitor key is a keyed hash
 * of app, IP and user agent under a key that changes every UTC day (derived from the server's secret, so
 * every instance computes the same key for one visitor on one day). Keys of different days cannot be
 * linked to each other or to an IP without that secret; the IP itself is never stored.
 */
export function createVisitorKeys(secret: string) {
  let cached: { day: string; key: Buffer } | null = null;

  function dayKey(day: string): Buffer {
    if (cached?.day !== day) {
      cached = { day, key: createHmac('sha256', secret).update(`app-logs visitor key ${day}`).digest() };
    }
    return cached.key;
  }

  return {
    /** keyFor is the visitor key of a view of appId from ip with userAgent at time. */
    keyFor(appId: string, ip: string, userAgent: string, time: Date): string {
      return createHmac('sha256', dayKey(utcDay(time)))
        .update(`${appId}\u0000${ip}\u0000${userAgent}`)
        .digest('base64url')
        .slice(0, VISITOR_KEY_LENGTH);
    },
  };
}

export type VisitorKeys = ReturnType<typeof createVisitorKeys>;
