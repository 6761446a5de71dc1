// What a request log line may say about a URL: never a credential carried in its query (an access token
// handed back after sign-in, a reset or invite link's token, a file's signature), also when the URL sits
// percent-encoded inside another parameter (`/login?from_url=…%3Faccess_token%3D…`).

/** REDACTED replaces a credential's value. */
export const REDACTED = '[redacted]';

// A parameter whose name says it is a credential, at the query's start or after `&` (or their encoded
// forms), then its value up to the next separator. Each character is read once: the value's class never
// overlaps the separators that end it.
const CREDENTIAL_PARAM =
  /((?:[?&]|%3F|%26)[A-Za-z0-9_.-]*(?:token|signature|secret|password|code|state)(?:=|%3D))(?:%(?!26)|[^&#%])*/gi;

/**
 * CREDENTIAL_NAME tells a credential's parameter by its decoded name, however it is spelled on the wire
 * (`%61ccess_token`, `access%5Ftoken`, `access_token[]`, `sig`, `api_key`); an OAuth `state` too.
 */
const CREDENTIAL_NAME = /token|sig|secret|passw|code|key|state/i;

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/** redactUrl returns url with every credential-named query value replaced by REDACTED. */
export function redactUrl(url: string): string {
  const start = url.indexOf('?');
  if (start < 0) return url;
  const hash = url.indexOf('#', start);
  const end = hash < 0 ? url.length : hash;
  const query = url
    .slice(start + 1, end)
    .split('&')
    .map((part) => {
      const equals = part.indexOf('=');
      if (equals < 0) return part;
      const name = part.slice(0, equals);
      if (CREDENTIAL_NAME.test(decodedName(name))) return `${name}=${REDACTED}`;
      // A URL carried percent-encoded in a value (`from_url`) may hold credentials of its own.
      return `${name}=${part.slice(equals + 1).replace(CREDENTIAL_PARAM, `$1${REDACTED}`)}`;
    });
  return `${url.slice(0, start)}?${query.join('&')}${url.slice(end)}`;
}

/** LoggedRequest is the part of a Fastify request the log serializer reads. */
export interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number } | null;
}

/** serializeRequest is the request log's `req` (Fastify's own fields), with the URL redacted. */
export function serializeRequest(request: LoggedRequest) {
  return {
    method: request.method,
    url: request.url === undefined ? undefined : redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
