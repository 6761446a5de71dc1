import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

// An OAuth 2 service as a generic connector meets it: an authorization endpoint that grants at once and
// sends the browser back with a code, a token endpoint (HTTP Basic client auth, PKCE S256, code and refresh
// grants, refresh tokens rotated), RFC 7009 revocation, and a small API under `/api/` that takes its bearer
// tokens: `/api/echo` says what it received, `/api/binary` answers PNG bytes, `/api/redirect` a 302,
// `/api/slow` never answers, `/api/big` 6 MB.

/** OAuth2ServiceDouble is the running double and what the tests change or read. */
export interface OAuth2ServiceDouble {
  origin: string;
  /** hostPort is what OUTBOUND_PRIVATE_HOSTS lists to let the server call it. */
  hostPort: string;
  clientId: string;
  clientSecret: string;
  /** accessTokenTtlSeconds is the lifetime of the access tokens issued from now on. */
  accessTokenTtlSeconds: number;
  refreshes: number;
  revoked: string[];
  /** forgetAccessTokens makes every access token issued so far unknown (the API answers 401). */
  forgetAccessTokens(): void;
  close(): Promise<void>;
}

interface Pending {
  challenge: string;
  redirectUri: string;
}

/** startOAuth2ServiceDouble starts the double on a free port of 127.0.0.1. */
export async function startOAuth2ServiceDouble(): Promise<OAuth2ServiceDouble> {
  const clientId = 'crm-client';
  const clientSecret = 'crm-client-secret-0123456789';
  const codes = new Map<string, Pending>();
  const accessTokens = new Set<string>();
  const refreshTokens = new Set<string>();
  const sockets = new Set<Socket>();
  const state = {
    accessTokenTtlSeconds: 3600,
    refreshes: 0,
    revoked: [] as string[],
  };

  const json = (response: ServerResponse, status: number, value: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(value));
  };
  const issue = (response: ServerResponse) => {
    const access = `at-${randomBytes(12).toString('hex')}`;
    const refresh = `rt-${randomBytes(12).toString('hex')}`;
    accessTokens.add(access);
    refreshTokens.add(refresh);
    json(response, 200, {
      access_token: access,
      token_type: 'Bearer',
      expires_in: state.accessTokenTtlSeconds,
      refresh_token: refresh,
      instance_url: 'https://crm.example/instance-7',
    });
  };
  const basicClient = (request: IncomingMessage) => {
    const [scheme, value] = (request.headers.authorization ?? '').split(' ');
    if (scheme !== 'Basic' || !value) return null;
    const [id, secret] = Buffer.from(value, 'base64').toString().split(':').map(decodeURIComponent);
    return id === clientId && secret === clientSecret ? id : null;
  };

  function token(request: IncomingMessage, response: ServerResponse, form: URLSearchParams) {
    if (!basicClient(request)) return json(response, 401, { error: 'invalid_client' });
    if (form.get('grant_type') === 'authorization_code') {
      const pending = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      const verifier = form.get('code_verifier') ?? '';
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      if (!pending || pending.challenge !== challenge || pending.redirectUri !== form.get('redirect_uri')) {
        return json(response, 400, { error: 'invalid_grant' });
      }
      return issue(response);
    }
    if (form.get('grant_type') === 'refresh_token') {
      const refresh = form.get('refresh_token') ?? '';
      if (!refreshTokens.delete(refresh)) return json(response, 400, { error: 'invalid_grant' });
      state.refreshes += 1;
      return issue(response);
    }
    return json(response, 400, { error: 'unsupported_grant_type' });
  }

  function api(request: IncomingMessage, response: ServerResponse, url: URL, body: string) {
    const bearer = (request.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!accessTokens.has(bearer)) return json(response, 401, { error: 'invalid_token' });
    switch (url.pathname) {
      case '/api/echo':
        response.setHeader('x-ratelimit-remaining', '41');
        response.setHeader('x-internal-secret', 'not for callers');
        return json(response, request.method === 'POST' ? 201 : 200, {
          method: request.method,
          path: url.pathname,
          query: [...url.searchParams],
          headers: request.headers,
          body: body ? (JSON.parse(body) as unknown) : null,
        });
      case '/api/binary':
        response.writeHead(200, { 'content-type': 'image/png' });
        return response.end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      case '/api/redirect':
        response.writeHead(302, { location: 'https://elsewhere.example/x' });
        return response.end();
      case '/api/big':
        response.writeHead(200, { 'content-type': 'application/octet-stream' });
        return response.end(Buffer.alloc(6 * 1024 * 1024));
      case '/api/slow':
        return undefined; // never answers
      default:
        return json(response, 404, { error: 'not_found' });
    }
  }

  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://double');
      if (url.pathname === '/authorize') {
        const redirect = new URL(url.searchParams.get('redirect_uri') ?? 'http://invalid');
        if (
          url.searchParams.get('client_id') !== clientId ||
          url.searchParams.get('code_challenge_method') !== 'S256'
        ) {
          redirect.searchParams.set('error', 'invalid_request');
        } else {
          const code = randomBytes(12).toString('hex');
          codes.set(code, {
            challenge: url.searchParams.get('code_challenge') ?? '',
            redirectUri: redirect.href,
          });
          redirect.searchParams.set('code', code);
        }
        redirect.searchParams.set('state', url.searchParams.get('state') ?? '');
        response.writeHead(302, { location: redirect.href });
        return response.end();
      }
      if (url.pathname === '/token') return token(request, response, new URLSearchParams(body));
      if (url.pathname === '/revoke') {
        const revoked = new URLSearchParams(body).get('token') ?? '';
        state.revoked.push(revoked);
        refreshTokens.delete(revoked);
        accessTokens.delete(revoked);
        response.writeHead(200);
        return response.end();
      }
      if (url.pathname.startsWith('/api/')) return api(request, response, url, body);
      return json(response, 404, { error: 'not_found' });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hostPort: `127.0.0.1:${port}`,
    clientId,
    clientSecret,
    get accessTokenTtlSeconds() {
      return state.accessTokenTtlSeconds;
    },
    set accessTokenTtlSeconds(seconds: number) {
      state.accessTokenTtlSeconds = seconds;
    },
    get refreshes() {
      return state.refreshes;
    },
    get revoked() {
      return state.revoked;
    },
    forgetAccessTokens: () => accessTokens.clear(),
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
