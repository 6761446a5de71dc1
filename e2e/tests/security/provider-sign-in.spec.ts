import { request as httpRequest } from 'node:http';
import { expect, test } from '../../support/test';
import { CookieJar, atProvider, startSignIn, visit } from '../../support/provider-sign-in-flow';
import { DEFAULT_APP_ID } from '../../support/sdk-client';
import type { RunningServer } from '../../support/server-process';
import { startSignInServer, type SignInSetup } from '../../support/sign-in-server';

// External sign-in (Google, SSO) against hostile input: where the browser may be sent back to, which window a
// popup may hand the token to, forged and misplaced states, forged Host headers. Each row runs against a real
// server whose SSO and Google point at an in-process oidc-provider; a refused login sets no state cookie.

const APP = DEFAULT_APP_ID;
const FRONT = 'https://front.example';
const sso = (query: string) => `/api/apps/${APP}/auth/sso/login?${query}`;
const from = (url: string) => `from_url=${encodeURIComponent(url)}`;

interface Scenario {
  name: string;
  path: string | ((setup: SignInSetup) => Promise<{ path: string; jar: CookieJar }>);
  status: number;
  /** says is a part of the answer's body. */
  says?: string;
}

/** startedElsewhere is a real callback of a sign-in another browser started (login CSRF). */
async function startedElsewhere(setup: SignInSetup) {
  const jar = new CookieJar();
  const started = await startSignIn(setup.server, jar, sso(from('/')));
  setup.provider.accounts.set('victim', { email: 'attacker@example.com', email_verified: true });
  const callback = await atProvider(setup.provider, started.providerUrl ?? '', 'victim');
  return { path: new URL(callback).pathname + new URL(callback).search, jar: new CookieJar() };
}

const SCENARIOS: Scenario[] = [
  {
    name: 'from_url on another site',
    path: sso(from('https://evil.example/')),
    status: 400,
    says: 'from_url',
  },
  { name: 'from_url protocol-relative', path: sso(from('//evil.example/x')), status: 400 },
  { name: 'from_url with a backslash', path: sso(from('/\\evil.example')), status: 400 },
  { name: 'from_url javascript:', path: sso(from('javascript:alert(1)')), status: 400 },
  { name: 'from_url with a newline', path: sso(from('/a\nSet-Cookie: x=1')), status: 400 },
  { name: 'from_url over 4096 characters', path: sso(from(`/${'a'.repeat(5000)}`)), status: 400 },
  {
    name: 'popup_origin of another site',
    path: sso(`${from('/')}&popup_origin=https%3A%2F%2Fevil.example`),
    status: 400,
    says: 'popup_origin',
  },
  {
    name: 'popup_origin with a path',
    path: sso(`${from('/')}&popup_origin=${encodeURIComponent(`${FRONT}/`)}`),
    status: 400,
  },
  { name: 'popup_origin "*"', path: sso(`${from('/')}&popup_origin=*`), status: 400 },
  { name: 'popup_origin "null"', path: sso(`${from('/')}&popup_origin=null`), status: 400 },
  {
    name: 'another app id (Google path)',
    path: `/api/apps/auth/login?app_id=other-app&${from('/')}`,
    status: 404,
  },
  { name: 'another app id (SSO path)', path: `/api/apps/other-app/auth/sso/login?${from('/')}`, status: 404 },
  { name: 'a provider named __proto__', path: `/api/apps/auth/__proto__/login`, status: 400 },
  { name: 'a provider named constructor', path: `/api/apps/auth/constructor/login`, status: 404 },
  { name: 'callback without state', path: '/api/apps/auth/callback?code=x', status: 400 },
  {
    name: 'callback with a forged state',
    path: '/api/apps/auth/callback?code=x&state=v1.AAAA.BBBB.CCCC',
    status: 400,
  },
  {
    name: 'callback with a state over 8192 characters',
    path: `/api/apps/auth/callback?state=${'a'.repeat(9000)}`,
    status: 400,
  },
  {
    name: 'callback with a repeated state parameter',
    path: '/api/apps/auth/callback?state=a&state=b',
    status: 400,
  },
  {
    name: 'callback carried to another browser (login CSRF)',
    path: startedElsewhere,
    status: 400,
    says: 'not valid here',
  },
  {
    name: 'hosted final-callback with a forged state',
    path: '/api/apps/auth/final-callback?code=x&state=x',
    status: 400,
  },
];

/** withHost GETs path with a forged Host header (fetch would not let a test set it). */
function withHost(server: RunningServer, path: string, host: string) {
  return new Promise<{ status: number; location: string }>((resolve, reject) => {
    const outgoing = httpRequest(
      { host: '127.0.0.1', port: server.port, path, method: 'GET', headers: { host } },
      (response) => {
        response.resume();
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, location: String(response.headers.location ?? '') }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

test.describe.serial('external sign-in against hostile input', () => {
  let setup: SignInSetup;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    setup = await startSignInServer({ CORS_ORIGINS: FRONT });
  });

  test.afterAll(async () => {
    await setup?.stop();
  });

  for (const row of SCENARIOS) {
    test(`${row.name} (→ ${row.status})`, async () => {
      const { path, jar } =
        typeof row.path === 'string' ? { path: row.path, jar: new CookieJar() } : await row.path(setup);
      const answer = await visit(jar, `${setup.server.url}${path}`);
      expect(answer.status).toBe(row.status);
      if (row.says) expect(await answer.text()).toContain(row.says);
      // A refused request starts nothing: no state cookie is set.
      expect(answer.headers.getSetCookie().filter((line) => !/max-age=0/i.test(line))).toEqual([]);
    });
  }

  test('a forged Host header never reaches the redirect URI', async () => {
    const answer = await withHost(setup.server, sso(from('/')), 'evil.example');
    expect([302, 400, 503]).toContain(answer.status);
    expect(answer.location).not.toContain('evil.example');
  });
});
