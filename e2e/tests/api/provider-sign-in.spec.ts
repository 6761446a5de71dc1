import { randomBytes } from 'node:crypto';
import { expect, test } from '../../support/test';
import {
  api,
  createUser,
  failure,
  SERVICE_TOKEN,
  serviceClient,
  uniqueEmail,
  userClient,
} from '../../support/auth-helpers';
import type { TestProvider } from '../../support/oidc-provider';
import {
  atProvider,
  CookieJar,
  signInThrough,
  startSignIn,
  tokenOf,
  visit,
} from '../../support/provider-sign-in-flow';
import { DEFAULT_APP_ID } from '../../support/sdk-client';
import { freePort, type RunningServer } from '../../support/server-process';
import { startSignInServer, type SignInSetup } from '../../support/sign-in-server';

// Sign-in with Google and SSO against a real OpenID Connect provider (oidc-provider, in-process): SSO by
// discovery and by explicit endpoints, Google with its discovery URL overridden; new and existing users, an
// unverified email, self-sign-up off, and the state's refusals (wrong, reused, expired, another browser).

/** TTL_SECONDS is short, so the expired-state test waits seconds, not 10 minutes. */
const TTL_SECONDS = 5;
const APP = DEFAULT_APP_ID;

let setup: SignInSetup;
let server: RunningServer;
let provider: TestProvider;
const setSecret = (name: string, value: string) => setup.setSecret(name, value);
const deleteSecret = (name: string) => setup.deleteSecret(name);

const ssoPath = (fromUrl: string) =>
  `/api/apps/${APP}/auth/sso/login?from_url=${encodeURIComponent(fromUrl)}`;

function account(email: string, verified = true) {
  const id = `acct-${randomBytes(6).toString('hex')}`;
  provider.accounts.set(id, { email, email_verified: verified, name: 'Ada Test' });
  return id;
}

test.describe.serial('sign-in with an OpenID Connect provider', () => {
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    setup = await startSignInServer({
      APP_VISIBILITY: 'private_with_login',
      APP_SELF_SIGNUP: 'true',
      SIGN_IN_STATE_TTL_SECONDS: String(TTL_SECONDS),
      CORS_ORIGINS: 'https://front.example',
    });
    ({ server, provider } = setup);
  });

  test.afterAll(async () => {
    await setup?.stop();
  });

  test('SSO by discovery: a new user is created verified and sent back with a token', async () => {
    const email = uniqueEmail('sso-new');
    const response = await signInThrough(
      server,
      provider,
      ssoPath(`${server.url}/home?tab=1`),
      account(email),
    );
    expect(response.status).toBe(302);
    const { target, token, isNewUser } = tokenOf(response);
    expect(`${target.origin}${target.pathname}`).toBe(`${server.url}/home`);
    expect(target.searchParams.get('tab')).toBe('1');
    expect(isNewUser).toBe('true');
    const me = await userClient(server, token).auth.me();
    expect(me.email).toBe(email);
    expect(me.full_name).toBe('Ada Test');
    // Self-sign-up is on: the new user belongs to the private app.
    expect(await userClient(server, token).app.getPublicSettings()).toMatchObject({ id: APP });
  });

  test('an existing user is signed in when the provider verified the email, refused when not', async () => {
    const email = uniqueEmail('sso-existing');
    const existing = await createUser(server, { email });
    const verified = await signInThrough(server, provider, ssoPath('/'), account(email));
    const { token, isNewUser } = tokenOf(verified);
    expect(isNewUser).toBe('false');
    expect((await userClient(server, token).auth.me()).id).toBe(existing.user.id);

    const unverified = await signInThrough(server, provider, ssoPath('/'), account(email, false));
    expect(unverified.status).toBe(403);
    expect(await unverified.text()).toContain('did not confirm that you own this email address');
  });

  test("sso.getAccessToken gives the provider's access token, refreshed once it expired", async () => {
    const sso = serviceClient(server).asServiceRole.sso;
    const email = uniqueEmail('sso-tokens');
    const fresh = tokenOf(await signInThrough(server, provider, ssoPath('/'), account(email)));
    const userId = (await userClient(server, fresh.token).auth.me()).id;
    const refreshesBefore = provider.refreshes;
    const { access_token: kept } = await sso.getAccessToken(userId);
    // A valid token from the provider itself (not one of ours), handed out as it was stored: no refresh.
    expect(await provider.userinfo(kept)).toBe(email);
    expect(kept).not.toBe(fresh.token);
    expect(provider.refreshes).toBe(refreshesBefore);

    // Tokens that live 30 s are within the refresh margin as soon as they are issued: each read refreshes.
    provider.accessTokenTtlSeconds = 30;
    try {
      const shortLived = tokenOf(await signInThrough(server, provider, ssoPath('/'), account(email)));
      expect(shortLived.isNewUser).toBe('false');
      const { access_token: refreshed } = await sso.getAccessToken(userId);
      expect(provider.refreshes).toBe(refreshesBefore + 1);
      expect(refreshed).not.toBe(kept);
      expect(await provider.userinfo(refreshed)).toBe(email);
    } finally {
      provider.accessTokenTtlSeconds = 3600;
    }

    // A password user keeps the answer they had: one of our own access tokens.
    const password = await createUser(server, { email: uniqueEmail('sso-password') });
    const { access_token: ours } = await sso.getAccessToken(password.user.id);
    expect((await userClient(server, ours).auth.me()).id).toBe(password.user.id);
  });

  test('SSO by explicit endpoints, with the issuer taken from the authorization endpoint', async () => {
    await deleteSecret('sso_discovery_url');
    try {
      await setSecret('sso_auth_endpoint', `${provider.issuer}/auth`);
      await setSecret('sso_token_endpoint', `${provider.issuer}/token`);
      await setSecret('sso_userinfo_endpoint', `${provider.issuer}/me`);
      await setSecret('sso_jwks_uri', `${provider.issuer}/jwks`);
      const response = await signInThrough(
        server,
        provider,
        ssoPath('/'),
        account(uniqueEmail('sso-explicit')),
      );
      expect(tokenOf(response).isNewUser).toBe('true');

      // A wrong expected issuer fails the ID token check.
      await setSecret('sso_issuer', 'https://someone-else.example');
      const wrongIssuer = await signInThrough(
        server,
        provider,
        ssoPath('/'),
        account(uniqueEmail('sso-issuer')),
      );
      expect(wrongIssuer.status).toBe(401);
      await deleteSecret('sso_issuer');
    } finally {
      await setSecret('sso_discovery_url', `${provider.issuer}/.well-known/openid-configuration`);
    }
  });

  test('Google with its discovery URL overridden by google_oauth_discovery_url', async () => {
    await setSecret('google_oauth_discovery_url', `${provider.issuer}/.well-known/openid-configuration`);
    const email = uniqueEmail('google');
    const from = `${server.url}/after`;
    const response = await signInThrough(
      server,
      provider,
      `/api/apps/auth/login?app_id=${APP}&from_url=${encodeURIComponent(from)}`,
      account(email),
    );
    const { target, token, isNewUser } = tokenOf(response);
    expect(target.pathname).toBe('/after');
    expect(isNewUser).toBe('true');
    expect((await userClient(server, token).auth.me()).email).toBe(email);
  });

  test('with self-sign-up off a new user gets the "not registered" outcome email sign-up gives', async () => {
    const settings = (selfSignup: boolean) =>
      api(server, `/api/apps/${APP}/admin/settings`, {
        method: 'PUT',
        token: SERVICE_TOKEN,
        body: { self_signup: selfSignup },
      });
    expect((await settings(false)).status).toBe(200);
    try {
      const response = await signInThrough(server, provider, ssoPath('/'), account(uniqueEmail('no-self')));
      const { token } = tokenOf(response);
      const refused = await failure(userClient(server, token).app.getPublicSettings());
      expect(refused.status).toBe(403);
      expect((refused.data as { extra_data: { reason: string } }).extra_data.reason).toBe(
        'user_not_registered',
      );
    } finally {
      await settings(true);
    }
  });

  test('a popup gets a page that posts the token to exactly its origin', async () => {
    const jar = new CookieJar();
    const started = await startSignIn(
      server,
      jar,
      `${ssoPath('/')}&popup_origin=${encodeURIComponent('https://front.example')}`,
    );
    const callback = await atProvider(provider, started.providerUrl ?? '', account(uniqueEmail('popup')));
    const page = await visit(jar, callback);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'nonce-[^']+'; /);
    const html = await page.text();
    expect(html).toContain('"https://front.example"');
    expect(html).toMatch(/"access_token":"[^"]+","is_new_user":true/);
  });

  test('a cancelled consent, a wrong state, a reused state and another browser are refused', async () => {
    const jar = new CookieJar();
    const started = await startSignIn(server, jar, ssoPath('/'));
    const cancelled = await visit(jar, await atProvider(provider, started.providerUrl ?? '', 'nobody', true));
    expect(cancelled.status).toBe(403);
    // A browser reads a page saying why; a script reads the same answer as JSON.
    expect(cancelled.headers.get('content-type')).toContain('text/html');
    const cancelledPage = await cancelled.text();
    expect(cancelledPage).toContain('Sign-in did not complete');
    expect(cancelledPage).toContain('cancelled');
    const json = await fetch(`${server.url}/api/apps/auth/callback?code=x&state=forged`);
    expect(json.status).toBe(400);
    expect(((await json.json()) as { message: string }).message).toContain('not valid here');

    const wrong = await visit(
      new CookieJar(),
      `${server.url}/api/apps/auth/callback?code=x&state=forged&iss=x`,
    );
    expect(wrong.status).toBe(400);

    const jar2 = new CookieJar();
    const second = await startSignIn(server, jar2, ssoPath('/'));
    const callback = await atProvider(provider, second.providerUrl ?? '', account(uniqueEmail('reuse')));
    // Another browser carrying the callback (login CSRF) is refused, and does not use the state up.
    expect((await visit(new CookieJar(), callback)).status).toBe(400);
    expect((await visit(jar2, callback)).status).toBe(302);
    // The callback's cookie was cleared; even with it kept, the state works once.
    const jar3 = new CookieJar();
    const third = await startSignIn(server, jar3, ssoPath('/'));
    const cookie = jar3.header(server.url);
    const again = await atProvider(provider, third.providerUrl ?? '', account(uniqueEmail('reuse2')));
    expect((await visit(jar3, again)).status).toBe(302);
    const replay = await fetch(again, { redirect: 'manual', headers: { cookie } });
    expect(replay.status).toBe(400);
    expect(await replay.text()).toContain('already completed');
  });

  test('a provider that cannot be reached is a 502 within 10 s, never a hang', async () => {
    const dead = await freePort();
    await setSecret('sso_discovery_url', `http://127.0.0.1:${dead}/.well-known/openid-configuration`);
    try {
      const began = Date.now();
      const started = await startSignIn(server, new CookieJar(), ssoPath('/'));
      expect(started.refused?.status).toBe(502);
      expect(Date.now() - began).toBeLessThan(11_000);
    } finally {
      await setSecret('sso_discovery_url', `${provider.issuer}/.well-known/openid-configuration`);
    }
  });

  test('an expired state is refused', async () => {
    const jar = new CookieJar();
    const started = await startSignIn(server, jar, ssoPath('/'));
    const callback = await atProvider(provider, started.providerUrl ?? '', account(uniqueEmail('late')));
    await new Promise((resolve) => setTimeout(resolve, (TTL_SECONDS + 1) * 1000));
    const late = await visit(jar, callback);
    expect(late.status).toBe(400);
    expect(await late.text()).toContain('more than 10 minutes');
  });

  test('a foreign from_url or popup_origin, and a provider that is not enabled, are refused', async () => {
    const jar = new CookieJar();
    const foreign = await startSignIn(server, jar, ssoPath('https://evil.example/'));
    expect(foreign.refused?.status).toBe(400);
    const popup = await startSignIn(
      server,
      jar,
      `${ssoPath('/')}&popup_origin=${encodeURIComponent('https://evil.example')}`,
    );
    expect(popup.refused?.status).toBe(400);
    const github = await fetch(`${server.url}/api/apps/auth/github/login?from_url=%2F`);
    expect(github.status).toBe(404);
    expect(((await github.json()) as { message: string }).message).toContain('not enabled');
    const page = await fetch(`${server.url}/api/apps/auth/github/login`, {
      headers: { accept: 'text/html' },
    });
    expect(page.status).toBe(404);
    expect(await page.text()).toContain('Sign in with e-mail');
    expect(jar.header(server.url)).toBe('');
  });
});
