import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { decodeProtectedHeader, importSPKI, jwtVerify } from 'jose';
import type { TestProvider } from './oidc-provider';
import { CookieJar, visit } from './provider-sign-in-flow';
import { freePort } from './server-process';

// Sign in with Apple's differences, put in front of the in-process oidc-provider: the discovery document is
// the provider's with the token endpoint moved here, and the token endpoint takes Apple's client secret (an
// ES256 JWT the server signs), checks it with the key's public half as Apple does (kid, iss = team id,
// sub = client id, aud = https://appleid.apple.com, at most 6 months), then forwards the request to the
// provider with the provider's own client secret. Authorization goes to the provider directly.

/** AppleKeyCheck is the team, key id, client id and public key (SPKI PEM) a client secret must match. */
export interface AppleKeyCheck {
  teamId: string;
  keyId: string;
  clientId: string;
  publicKey: string;
}

/** AppleFront is the running front, the discovery URL to give the server, and the secrets it refused. */
export interface AppleFront {
  discoveryUrl: string;
  accepted: number;
  refusals: string[];
  close(): Promise<void>;
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** startAppleFront starts the front of provider, checking client secrets against key. */
export async function startAppleFront(provider: TestProvider, key: AppleKeyCheck): Promise<AppleFront> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const publicKey = await importSPKI(key.publicKey, 'ES256');
  const front: AppleFront = {
    discoveryUrl: `${url}/.well-known/openid-configuration`,
    accepted: 0,
    refusals: [],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  async function discovery(response: ServerResponse) {
    const document = (await (
      await fetch(`${provider.issuer}/.well-known/openid-configuration`)
    ).json()) as Record<string, unknown>;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ ...document, token_endpoint: `${url}/token` }));
  }

  async function token(request: IncomingMessage, response: ServerResponse) {
    const form = new URLSearchParams(await bodyOf(request));
    const secret = form.get('client_secret') ?? '';
    try {
      if (decodeProtectedHeader(secret).kid !== key.keyId) throw new Error('kid');
      const { payload } = await jwtVerify(secret, publicKey, {
        algorithms: ['ES256'],
        issuer: key.teamId,
        subject: key.clientId,
        audience: 'https://appleid.apple.com',
        requiredClaims: ['iat', 'exp'],
      });
      if ((payload.exp ?? 0) - (payload.iat ?? 0) > 15_777_000) throw new Error('lifetime over 6 months');
      if (form.get('client_id') !== key.clientId) throw new Error('client_id');
    } catch (error) {
      front.refusals.push((error as Error).message);
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: 'invalid_client' }));
      return;
    }
    front.accepted += 1;
    form.delete('client_secret');
    form.delete('client_id');
    const basic = Buffer.from(`${provider.clientId}:${provider.clientSecret}`).toString('base64');
    const answer = await fetch(`${provider.issuer}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
      body: form.toString(),
    });
    response.writeHead(answer.status, {
      'content-type': answer.headers.get('content-type') ?? 'application/json',
    });
    response.end(await answer.text());
  }

  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', url).pathname;
    const done = (error: unknown) => {
      response.writeHead(500);
      response.end(String(error));
    };
    if (request.method === 'GET' && path === '/.well-known/openid-configuration') {
      discovery(response).catch(done);
    } else if (request.method === 'POST' && path === '/token') {
      token(request, response).catch(done);
    } else {
      response.writeHead(404);
      response.end();
    }
  });
  server.listen(port, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return front;
}

function unescapeHtml(text: string): string {
  return text
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}

/**
 * atProviderFormPost signs accountId in at provider and returns the form its `response_mode=form_post`
 * page would POST: the action (our callback) and the fields.
 */
export async function atProviderFormPost(
  provider: TestProvider,
  providerUrl: string,
  accountId: string,
): Promise<{ action: string; fields: Record<string, string> }> {
  const jar = new CookieJar();
  let url = providerUrl;
  for (let step = 0; step < 10; step += 1) {
    const response = await visit(jar, url);
    if (response.status >= 300 && response.status < 400) {
      url = new URL(response.headers.get('location') ?? '', url).href;
      continue;
    }
    const html = await response.text();
    if (/\/interaction\/[^/?#]+$/.test(new URL(url).pathname)) {
      const submitted = await visit(jar, url, { prompt: 'login', login: accountId, password: 'any' });
      url = new URL(submitted.headers.get('location') ?? '', url).href;
      continue;
    }
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`provider answered ${response.status} at ${url}: ${html.slice(0, 500)}`);
    const fields: Record<string, string> = {};
    for (const input of html.matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)) {
      fields[unescapeHtml(input[1] ?? '')] = unescapeHtml(input[2] ?? '');
    }
    return { action: unescapeHtml(action), fields };
  }
  throw new Error('the provider never answered with its form');
}
