// OAuth 2 sign-in (Facebook's settings) against a local token endpoint and user info: the code exchange
// with PKCE, Facebook's email counted as verified, a user-info body past the bound, and no refresh.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConflictError, UpstreamError } from '../../lib/errors';
import { facebookProtocol } from './oauth2-providers';
import { USER_INFO_LIMIT } from './oauth2-protocol';

let server: Server;
let base = '';
let profile = '';
const seen: URLSearchParams[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      response.setHeader('content-type', 'application/json');
      if (request.url === '/token') {
        seen.push(new URLSearchParams(Buffer.concat(chunks).toString()));
        response.end(JSON.stringify({ access_token: 'fb-token', token_type: 'bearer', expires_in: 5000 }));
      } else if (request.headers.authorization === 'Bearer fb-token') {
        response.end(profile);
      } else {
        response.statusCode = 401;
        response.end('{}');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function facebook() {
  const secrets: Record<string, string> = {
    facebook_oauth_client_id: 'fb-app',
    facebook_oauth_client_secret: 'fb-secret',
    facebook_oauth_authorize_url: `${base}/dialog/oauth`,
    facebook_oauth_token_url: `${base}/token`,
    facebook_oauth_userinfo_url: `${base}/me?fields=id,name,email`,
  };
  return facebookProtocol((name) => Promise.resolve(secrets[name]));
}

const exchangeInput = {
  callbackUrl: new URL('https://app.example/api/apps/auth/callback?code=c1&state=s1'),
  state: 's1',
  nonce: 'unused',
  codeVerifier: 'v'.repeat(43),
};

describe('Facebook over OAuth 2', () => {
  it('asks for email public_profile with PKCE S256 and state', async () => {
    const url = await (
      await facebook()
    ).authorizationUrl({
      redirectUri: 'https://app.example/api/apps/auth/callback',
      state: 's1',
      nonce: 'n',
      codeVerifier: 'v'.repeat(43),
    });
    expect(url.searchParams.get('scope')).toBe('email public_profile');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('state')).toBe('s1');
    expect(url.searchParams.get('client_id')).toBe('fb-app');
  });

  it('exchanges the code with the verifier and reads a confirmed email as verified', async () => {
    profile = JSON.stringify({ id: '42', name: 'Finn Facebook', email: 'finn@example.com' });
    const done = await (await facebook()).exchange(exchangeInput);
    expect(done.identity).toEqual({ email: 'finn@example.com', emailVerified: true, name: 'Finn Facebook' });
    expect(done.tokens.accessToken).toBe('fb-token');
    expect(done.tokens.expiresAt).toBeGreaterThan(Date.now() / 1000);
    const form = seen.at(-1);
    expect(form?.get('code_verifier')).toBe('v'.repeat(43));
    expect(form?.get('client_secret')).toBe('fb-secret');
  });

  it('without an email, nothing counts as verified', async () => {
    profile = JSON.stringify({ id: '43', name: 'No Mail' });
    expect((await (await facebook()).exchange(exchangeInput)).identity).toEqual({
      email: undefined,
      emailVerified: false,
      name: 'No Mail',
    });
  });

  it('refuses a user-info body past the bound, or of the wrong shape, as an upstream failure', async () => {
    profile = JSON.stringify({ id: '1', name: 'x'.repeat(USER_INFO_LIMIT) });
    const tooLarge = (await facebook()).exchange(exchangeInput);
    await expect(tooLarge).rejects.toThrow(UpstreamError);
    await expect(tooLarge).rejects.toThrow(/larger than/);
    profile = JSON.stringify({ id: 1 });
    await expect((await facebook()).exchange(exchangeInput)).rejects.toThrow(/unexpected shape/);
  });

  it('has no refresh: a clear refusal', async () => {
    await expect((await facebook()).refresh('r')).rejects.toThrow(ConflictError);
  });
});
