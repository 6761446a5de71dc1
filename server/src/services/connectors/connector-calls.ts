// `connectors.callApi`: one request to a connector's API with the app's stored token, through the outbound
// guard (public addresses only, unless OUTBOUND_PRIVATE_HOSTS trusts one), to one of the connector's API
// hosts, redirects not followed. The outcome is always an answer, never a thrown provider error: the SDK
// reads `phase` to know whether the request may have run upstream.
import { InvalidInputError, OutboundLimitError, OutboundRefusedError } from '../../lib/errors';
import type { PublicFetch, PublicResponse } from '../../lib/public-fetch';
import type { ConnectorSettings } from './connector-settings';

/** MAX_ANSWER_BYTES bounds an upstream answer. */
export const MAX_ANSWER_BYTES = 5 * 1024 * 1024;

/** ConnectorCall is a validated callApi request. */
export interface ConnectorCall {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';
  host?: string | undefined;
  path: string;
  query: Record<string, string | number | boolean | Array<string | number>>;
  headers: Record<string, string>;
  body: unknown;
}

/** CallAnswer is the proxy's answer, as the SDK reads it. */
export interface CallAnswer {
  success: boolean;
  phase: 'not_sent' | 'responded' | 'timed_out' | 'sent_unconfirmed';
  status_code: number | null;
  data: unknown;
  data_base64: string | null;
  content_type: string | null;
  headers: Record<string, string>;
  credits_charged: 0;
}

/** DROPPED_HEADERS never pass from the caller to the provider (the server sets Authorization itself). */
const DROPPED_HEADERS = new Set([
  'authorization',
  'cookie',
  'host',
  'connection',
  'keep-alive',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'content-length',
]);
const DROPPED_PREFIXES = ['proxy-', 'x-forwarded-'];
/** KEPT_ANSWER_HEADERS are the upstream headers a caller needs (rate limits, caching, where it went). */
const KEPT_ANSWER_HEADERS = /^(retry-after|etag|location|(x-)?ratelimit-.*)$/i;

/** targetUrl builds the upstream URL, refusing a host the connector does not have or a path that escapes. */
export function targetUrl(settings: ConnectorSettings, call: ConnectorCall): URL {
  const host = (call.host ?? settings.apiHosts[0] ?? '').toLowerCase();
  if (!settings.apiHosts.some((known) => known.toLowerCase() === host)) {
    throw new InvalidInputError(
      `host: ${settings.type} calls only ${settings.apiHosts.join(', ') || 'its api_base_url'}`,
    );
  }
  const decoded = safeDecode(call.path);
  if (
    /^[a-z][a-z0-9+.-]*:/i.test(call.path) ||
    call.path.startsWith('//') ||
    /(^|\/)\.\.(\/|$)/.test(decoded) ||
    decoded.includes('\\')
  ) {
    throw new InvalidInputError('path: must be a path on the API host (no scheme, "//", ".." or "\\")');
  }
  const path = call.path.startsWith('/') ? call.path : `/${call.path}`;
  const url = new URL(`${settings.apiProtocol}//${host}${settings.apiBasePath}${path}`);
  for (const [name, value] of Object.entries(call.query)) {
    for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(item));
  }
  return url;
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    throw new InvalidInputError('path: holds a malformed percent-encoding');
  }
}

/** forwardedHeaders are the caller's headers the provider may see, plus our Authorization. */
function forwardedHeaders(call: ConnectorCall, accessToken: string): Record<string, string> {
  const kept = Object.entries(call.headers).filter(([name]) => {
    const lower = name.toLowerCase();
    return !DROPPED_HEADERS.has(lower) && !DROPPED_PREFIXES.some((prefix) => lower.startsWith(prefix));
  });
  const headers: Record<string, string> = Object.fromEntries(kept);
  headers.authorization = `Bearer ${accessToken}`;
  if (hasBody(call) && !kept.some(([name]) => name.toLowerCase() === 'content-type')) {
    headers['content-type'] = 'application/json';
  }
  return headers;
}

const hasBody = (call: ConnectorCall) =>
  call.method !== 'GET' && call.method !== 'HEAD' && call.body !== null && call.body !== undefined;

const failed = (phase: CallAnswer['phase'], message: string): CallAnswer => ({
  success: false,
  phase,
  status_code: null,
  data: { error: message },
  data_base64: null,
  content_type: null,
  headers: {},
  credits_charged: 0,
});

function answerOf(response: PublicResponse): CallAnswer {
  const contentType = String(response.headers['content-type'] ?? '');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (KEPT_ANSWER_HEADERS.test(name) && value !== undefined) headers[name] = String(value);
  }
  const base = {
    success: response.status >= 200 && response.status < 300,
    phase: 'responded' as const,
    status_code: response.status,
    headers,
    credits_charged: 0 as const,
  };
  if (response.body.length === 0) return { ...base, data: null, data_base64: null, content_type: null };
  if (/json/i.test(contentType)) {
    try {
      return {
        ...base,
        data: JSON.parse(response.body.toString('utf8')),
        data_base64: null,
        content_type: null,
      };
    } catch {
      // Not JSON after all: handed over as text below.
    }
  }
  if (/^text\/|json|xml|x-www-form-urlencoded/i.test(contentType) || contentType === '') {
    return { ...base, data: response.body.toString('utf8'), data_base64: null, content_type: null };
  }
  return {
    ...base,
    data: null,
    data_base64: response.body.toString('base64'),
    content_type: contentType.split(';')[0]?.trim() ?? null,
  };
}

/** sendCall sends call with accessToken and maps every outcome to an answer (refusals of ours throw). */
export async function sendCall(
  fetchPublic: PublicFetch,
  url: URL,
  call: ConnectorCall,
  accessToken: string,
  timeoutMs: number,
): Promise<CallAnswer> {
  try {
    const response = await fetchPublic({
      url: url.href,
      method: call.method,
      headers: forwardedHeaders(call, accessToken),
      ...(hasBody(call) ? { body: JSON.stringify(call.body) } : {}),
      maxBytes: MAX_ANSWER_BYTES,
      timeoutMs,
      maxRedirects: 0,
    });
    return answerOf(response);
  } catch (error) {
    if (error instanceof OutboundRefusedError) throw error;
    if (error instanceof OutboundLimitError) {
      return error.reason === 'timeout'
        ? failed('timed_out', error.message)
        : failed('sent_unconfirmed', `${error.message}: the answer was dropped`);
    }
    // A connection that failed before the request went out (refused, unresolvable, unreachable).
    return failed('not_sent', (error as Error).message);
  }
}
