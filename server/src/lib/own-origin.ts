import { NotConfiguredError } from './errors';

/** ArrivedAt is how a request reached this server: the origin it names and the socket it came in on. */
export interface ArrivedAt {
  /** protocol is `http` or `https` as the server saw the connection. */
  protocol: string;
  /** host is the request's Host (host[:port]); it is chosen by the client, so never trusted alone. */
  host: string;
  /** localAddress and localPort are where this server accepted the TCP connection. */
  localAddress: string | undefined;
  localPort: number | undefined;
}

/** MISSING_PUBLIC_URL is the operator-facing explanation when a mailed link cannot be built safely. */
export const MISSING_PUBLIC_URL =
  'This server cannot mail links: PUBLIC_URL is not set and the request was not addressed to the address the server listens on. The operator must set PUBLIC_URL to the address users open (e.g. https://app.example.com).';

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

function withoutIpv4Mapping(address: string): string {
  return address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
}

/**
 * listenOrigin returns the request's origin when its Host names the very address and port the connection
 * was accepted on (or `localhost` for a loopback connection), else null. A forged Host (`evil.example`)
 * or one rewritten by a proxy in front never matches.
 */
export function listenOrigin(arrived: ArrivedAt): string | null {
  if (!arrived.localAddress || !arrived.localPort) return null;
  let named: URL;
  try {
    named = new URL(`${arrived.protocol}://${arrived.host}`);
  } catch {
    return null;
  }
  if (named.username || named.password || named.pathname !== '/' || named.search || named.hash) return null;
  const defaultPort = named.protocol === 'https:' ? 443 : 80;
  const port = named.port === '' ? defaultPort : Number(named.port);
  if (port !== arrived.localPort) return null;
  const hostname = named.hostname.replace(/^\[(.*)\]$/, '$1');
  const local = withoutIpv4Mapping(arrived.localAddress);
  const sameAddress = hostname === local || (hostname === 'localhost' && LOOPBACK.has(local));
  return sameAddress ? named.origin : null;
}

/**
 * ownOrigin is the origin this server may name in a link or redirect: PUBLIC_URL when set, else the
 * listen address when the request was addressed to it, else null (then only relative links are safe).
 */
export function ownOrigin(publicUrl: string | undefined, arrived: ArrivedAt): string | null {
  return publicUrl ?? listenOrigin(arrived);
}

/**
 * mailLinkOrigin returns the origin mailed links (password reset, invite) point to: PUBLIC_URL when set;
 * without it only the server's own listen address (local development); anything else is refused with
 * NotConfiguredError, since the Host header is the attacker's choice.
 */
export function mailLinkOrigin(publicUrl: string | undefined, arrived: ArrivedAt): string {
  const origin = ownOrigin(publicUrl, arrived);
  if (!origin) throw new NotConfiguredError(MISSING_PUBLIC_URL);
  return origin;
}
