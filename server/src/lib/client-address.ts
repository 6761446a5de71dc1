// The client's IP where Fastify cannot tell it (a TCP connection before any request, a socket.io
// handshake): TRUST_PROXY read as Fastify's proxy-addr reads it, so every per-IP limit counts the same IP.
import ipaddr from 'ipaddr.js';

// proxy-addr's names for address ranges.
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

function rangeOf(entry: string): Range | null {
  try {
    if (entry.includes('/')) return ipaddr.parseCIDR(entry);
    const address = ipaddr.parse(entry);
    return [address, address.kind() === 'ipv4' ? 32 : 128];
  } catch {
    return null;
  }
}

/** plain is an address with an IPv4-mapped IPv6 form (`::ffff:1.2.3.4`) turned into IPv4. */
function plain(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (!ipaddr.isValid(address)) return null;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    return (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed;
}

/** IsTrusted says whether the address `hop` hops away (0: the TCP peer) is a proxy we trust. */
export type IsTrusted = (address: string, hop: number) => boolean;

/** trustedProxies compiles TRUST_PROXY (off, all, a hop count, addresses) into the test Fastify applies. */
export function trustedProxies(trust: boolean | number | readonly string[]): IsTrusted {
  if (trust === true) return () => true;
  if (trust === false) return () => false;
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  const ranges = trust
    .flatMap((entry) => NAMED_RANGES[entry] ?? [entry])
    .map(rangeOf)
    .filter((range): range is Range => range !== null);
  return (address) => {
    const parsed = plain(address);
    return (
      parsed !== null &&
      ranges.some(([base, bits]) => base.kind() === parsed.kind() && parsed.match(base, bits))
    );
  };
}

/**
 * clientAddress is the client's IP: the TCP peer, or, while the peer and each further hop are trusted
 * proxies, the next address of X-Forwarded-For (read right to left), as Fastify's `request.ip`.
 */
export function clientAddress(peer: string, forwardedFor: string | undefined, isTrusted: IsTrusted): string {
  const hops = [
    peer,
    ...(forwardedFor ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean)
      .reverse(),
  ];
  for (let hop = 0; hop < hops.length - 1; hop++) {
    if (!isTrusted(hops[hop] ?? '', hop)) return hops[hop] ?? peer;
  }
  return hops.at(-1) ?? peer;
}
