// Outbound HTTP for URLs a caller chose (file URLs to read, custom integration upstreams): only public
// http(s) addresses, checked at connect time so a DNS answer cannot swap in a private address after the
// check (rebinding), with a size cap read as the body streams and one deadline for the whole exchange.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { OutboundLimitError, OutboundRefusedError, UpstreamError } from './errors';

export { OutboundLimitError, OutboundRefusedError, UpstreamError };

export interface PublicRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
  /** maxBytes caps the answer's body; more is OutboundLimitError('size'). */
  maxBytes: number;
  /** timeoutMs bounds the whole exchange, redirects included. */
  timeoutMs: number;
  /** maxRedirects followed for GET/HEAD (each hop checked again); default 3, 0 returns the 3xx. */
  maxRedirects?: number;
  /**
   * credentialHeaders name headers that carry a secret (an API key header); like `authorization` and
   * `cookie`, they are dropped when a redirect leaves the request's origin.
   */
  credentialHeaders?: readonly string[];
}

export interface PublicResponse {
  status: number;
  headers: IncomingMessage['headers'];
  body: Buffer;
  /** url is where the answer came from, after redirects. */
  url: string;
}

export interface PublicFetchOptions {
  /**
   * allowedPrivateHosts are `host:port` pairs an operator trusts although they are private (an internal
   * service, a test double); empty in production by default.
   */
  allowedPrivateHosts?: readonly string[];
}

/** GLOBAL_UNICAST is the only IPv6 block handed out as public addresses (2000::/3). */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

/** isPublicAddress tells whether an IP literal is a public unicast address (no loopback, private, link-local…). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  // Outside 2000::/3 ipaddr calls much "unicast" that is not (IPv4-compatible ::7f00:1, NAT64, ::/8):
  // only global unicast that no named range claims is public.
  return parsed.match(GLOBAL_UNICAST) && parsed.range() === 'unicast';
}

/** isLocalName says a host name always means this machine (`localhost`, `LOCALHOST.`, `a.localhost`). */
export function isLocalName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.+$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/** CREDENTIAL_HEADERS never follow a redirect to another origin. */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

/** withoutCredentials is headers without those that carry credentials (names compared in lower case). */
function withoutCredentials(
  headers: Record<string, string> | undefined,
  extra: readonly string[],
): Record<string, string> {
  const dropped = new Set([...CREDENTIAL_HEADERS, ...extra.map((name) => name.toLowerCase())]);
  return Object.fromEntries(
    Object.entries(headers ?? {}).filter(([name]) => !dropped.has(name.toLowerCase())),
  );
}

/** NETWORK_FAILURES say, for a network error's code, what went wrong in words a caller can act on. */
const NETWORK_FAILURES: Record<string, string> = {
  ENOTFOUND: 'its name does not resolve; check the URL',
  EAI_AGAIN: 'its name could not be resolved now; try again later',
  ECONNREFUSED: 'it refused the connection',
  ECONNRESET: 'it closed the connection',
  EHOSTUNREACH: 'it cannot be reached',
  ENETUNREACH: 'it cannot be reached',
  ETIMEDOUT: 'it did not answer',
};

/** unreachable turns a network error into an UpstreamError (502) naming the host, never a 500. */
function unreachable(error: unknown, raw: string): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (typeof code !== 'string' || error instanceof OutboundRefusedError) return error;
  const why = NETWORK_FAILURES[code] ?? 'the exchange failed';
  return new UpstreamError(`Could not fetch from ${hostOf(raw)}: ${why} (${code})`, { cause: error });
}

function refuse(host: string): OutboundRefusedError {
  return new OutboundRefusedError(
    `Refused to fetch ${host}: only public internet addresses may be fetched (not private, loopback or link-local ones)`,
  );
}

/** guardedLookup resolves like dns.lookup and fails when any answer is not a public address. */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 4);
    const list = addresses ?? [];
    if (list.length === 0 || list.some((entry) => !isPublicAddress(entry.address))) {
      return callback(refuse(hostname), '', 4);
    }
    if (options.all) return callback(null, list);
    const [first] = list;
    if (first) callback(null, first.address, first.family);
  });
};

/** createPublicFetch returns the one guarded fetch the server uses for caller-chosen URLs. */
export function createPublicFetch(options: PublicFetchOptions = {}) {
  const trusted = new Set((options.allowedPrivateHosts ?? []).map((host) => host.toLowerCase()));

  function targetOf(raw: string): { url: URL; trustedHost: boolean } {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new OutboundRefusedError(`Not a valid URL: ${raw.slice(0, 200)}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new OutboundRefusedError(`Only http(s) URLs may be fetched, not ${url.protocol}`);
    }
    if (url.username || url.password) throw new OutboundRefusedError('URLs with credentials are refused');
    const port = url.port || (url.protocol === 'https:' ? '443' : '80');
    const trustedHost = trusted.has(`${url.hostname.toLowerCase()}:${port}`);
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    // Node skips the lookup function for IP literals, so they are checked here.
    if (!trustedHost && isIP(literal) && !isPublicAddress(literal)) throw refuse(url.hostname);
    if (!trustedHost && isLocalName(url.hostname)) throw refuse(url.hostname);
    return { url, trustedHost };
  }

  function once(
    input: PublicRequest,
    raw: string,
    headers: Record<string, string> | undefined,
    signal: AbortSignal,
  ): Promise<PublicResponse> {
    const { url, trustedHost } = targetOf(raw);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const requestOptions: RequestOptions = {
      method: input.method ?? 'GET',
      headers,
      signal,
      ...(trustedHost ? {} : { lookup: guardedLookup }),
    };
    return new Promise((resolve, reject) => {
      const outgoing = send(url, requestOptions, (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const declared = Number(response.headers['content-length']);
        if (Number.isFinite(declared) && declared > input.maxBytes) {
          response.destroy();
          return reject(tooLarge(input.maxBytes));
        }
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > input.maxBytes) {
            response.destroy();
            reject(tooLarge(input.maxBytes));
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
            url: url.toString(),
          }),
        );
        response.on('error', reject);
      });
      outgoing.on('error', reject);
      outgoing.end(input.body);
    });
  }

  /** fetchPublic sends input, following GET/HEAD redirects (each hop guarded), within the limits. */
  return async function fetchPublic(input: PublicRequest): Promise<PublicResponse> {
    const signal = AbortSignal.timeout(input.timeoutMs);
    const method = (input.method ?? 'GET').toUpperCase();
    const hops = method === 'GET' || method === 'HEAD' ? (input.maxRedirects ?? 3) : 0;
    let current = input.url;
    let headers = input.headers;
    try {
      for (let hop = 0; ; hop++) {
        const response = await once(input, current, headers, signal);
        const location = response.headers.location;
        if (response.status < 300 || response.status >= 400 || !location || hops === 0) return response;
        if (hop >= hops)
          throw new OutboundRefusedError(`Too many redirects fetching ${input.url.slice(0, 200)}`);
        const next = new URL(location, current);
        // Credentials are for the origin they were sent to, never for where it redirects.
        if (next.origin !== new URL(current).origin) {
          headers = withoutCredentials(headers, input.credentialHeaders ?? []);
        }
        current = next.toString();
      }
    } catch (error) {
      if (signal.aborted) {
        throw new OutboundLimitError(
          `No answer from ${hostOf(input.url)} within ${input.timeoutMs} ms`,
          'timeout',
        );
      }
      throw unreachable(error, current);
    }
  };
}

function tooLarge(maxBytes: number): OutboundLimitError {
  return new OutboundLimitError(`The answer is larger than ${Math.round(maxBytes / 1024)} KiB`, 'size');
}

function hostOf(raw: string): string {
  try {
    return new URL(raw).host;
  } catch {
    return 'the URL';
  }
}

export type PublicFetch = ReturnType<typeof createPublicFetch>;
