// What a request log line may say about a URL: never a credential carried in its query (an access token
// handed back after sign-in, a reset or invite link's token, a file's signature), also when the URL sits
// percent-encoded inside another parameter (`/login?from_url=…%3Faccess_token%3D…`).

/** REDACTED replaces a credential's value. */
export const REDACTED = '[redacted]';

// A parameter whose name says it is a credential, at the query's start or after `&` (or their encoded
// forms), then its value up to the next separator. Each character is read once: the value's class never
// overlaps the separators that end it.
const CREDENTIAL_PARAM =
  /((?:[?&]|%3F|%26)[A-Za-z0-9_.-]*(?:token|signature|secret|password|code)(?:=|%3D))(?:%(?!26)|[^&#%])*/gi;

/** redactUrl returns url with every credential-named query value replaced by REDACTED. */
export function redactUrl(url: string): string {
  return url.replace(CREDENTIAL_PARAM, `$1${REDACTED}`);
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
