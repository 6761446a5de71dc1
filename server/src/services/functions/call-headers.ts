// The headers of one call, both ways. To the function: the caller's, minus the platform's own names and
// hop-by-hop ones, plus what `createClientFromRequest` expects (docs/protocol-notes.md, "Functions"): the
// app id, the API address the sandbox may reach and a freshly minted short-lived service token; a visitor's
// headers under those names are dropped first. Back to the caller: the function's, minus hop-by-hop ones.
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';

/** STRIPPED_HEADERS are never passed from the caller: the platform's own, and hop-by-hop ones. */
const STRIPPED_HEADERS = new Set([
  'x-data-env',
  'x-app-id',
  'host',
  'connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'upgrade',
  'transfer-encoding',
]);
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'trailer', 'te']);

/** callHeaders is what the function receives: the caller's headers minus the platform's, plus the platform's. */
export function callHeaders(
  incoming: IncomingHttpHeaders,
  platform: { appId: string; apiUrl: string; serviceToken: string },
): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(incoming)) {
    const lower = name.toLowerCase();
    if (value === undefined || STRIPPED_HEADERS.has(lower) || lower.startsWith('base44-')) continue;
    headers[lower] = value;
  }
  headers['base44-app-id'] = platform.appId;
  headers['base44-api-url'] = platform.apiUrl;
  headers['base44-service-authorization'] = `Bearer ${platform.serviceToken}`;
  const version = incoming['base44-functions-version'];
  if (typeof version === 'string' && version.length <= 200) headers['base44-functions-version'] = version;
  return headers;
}

/** answerHeaders are the function's response headers the caller receives (hop-by-hop ones dropped). */
export function answerHeaders(response: IncomingMessage): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
  }
  return headers;
}
