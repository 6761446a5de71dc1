import { isIP } from 'node:net';
import { z } from 'zod';
import { blankAsUndefined, count } from './env-values';

/** PROXY_KEYWORDS are the address ranges Fastify's trustProxy (proxy-addr) knows by name. */
const PROXY_KEYWORDS = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (PROXY_KEYWORDS.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/** TrustProxy is Fastify's `trustProxy`: off, every proxy, a hop count, or the proxies' addresses. */
export type TrustProxy = boolean | number | string[];

/**
 * parseTrustProxy reads TRUST_PROXY: `false` (default: X-Forwarded-For is ignored), `true` (trust every
 * hop: only behind a proxy that overwrites the header), a hop count such as `1`, or a comma-separated list
 * of proxy addresses, CIDRs or the names loopback, linklocal, uniquelocal. Returns null when invalid.
 */
export function parseTrustProxy(value: string): TrustProxy | null {
  const text = value.trim();
  if (text === 'false') return false;
  if (text === 'true') return true;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return hops === 0 ? false : hops <= 100 ? hops : null;
  }
  const entries = text.split(',').map((entry) => entry.trim());
  return entries.length > 0 && entries.every(isProxyAddress) ? entries : null;
}

/** LimitsEnvShape lists the environment variables of rate limits, proxies and realtime rooms. */
export const LimitsEnvShape = {
  TRUST_PROXY: z.preprocess(
    blankAsUndefined,
    z
      .string()
      .default('false')
      .transform((value, context) => {
        const parsed = parseTrustProxy(value);
        if (parsed !== null) return parsed;
        context.addIssue({
          code: 'custom',
          message:
            'must be false, true, a hop count (e.g. 1) or a comma-separated list of proxy addresses/CIDRs (e.g. 10.0.0.0/8,loopback)',
        });
        return z.NEVER;
      }),
  ),
  INTEGRATION_RATE_LIMIT_PER_MINUTE: count(30, 1_000_000),
  INTEGRATION_RATE_LIMIT_PER_USER_PER_MINUTE: count(20, 1_000_000),
  RATE_LIMIT_MAX_KEYS: count(10_000, 10_000_000),
  /** ENTITY_REGEX_SCAN_MS_PER_MINUTE is the time entity requests holding `$regex` of one user (or IP) may take a minute. */
  ENTITY_REGEX_SCAN_MS_PER_MINUTE: count(10_000, 60_000_000),
  REALTIME_MAX_ROOMS_PER_SOCKET: count(100, 10_000),
};
