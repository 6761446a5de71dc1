import { randomBytes } from 'node:crypto';
import { exportPKCS8, exportSPKI, generateKeyPair } from 'jose';
import { expect, test } from '../../support/test';
import { createUser, uniqueEmail, userClient } from '../../support/auth-helpers';
import { atProviderFormPost, startAppleFront, type AppleFront } from '../../support/apple-front';
import { atGitHub, startGitHubDouble, type GitHubDouble } from '../../support/github-oauth-double';
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

// Sign-in with GitHub (OAuth 2 and its user info) against a GitHub double, Microsoft through its discovery
// URL pointed at a real OpenID Connect provider (oidc-provider, in-process), and a provider's form_post
// callback bounced to the GET callback, and Apple (its signed client secret, its form_post answer) in front of
// the same provider. One server for the file.

const APP = DEFAULT_APP_ID;
const GITHUB = `/api/apps/auth/github/login?from_url=${encodeURIComponent('/home')}`;

let setup: SignInSetup;
let server: RunningServer;
let github: GitHubDouble;
let apple: AppleFront;
const APPLE = { teamId: 'TEAM123456', keyId: 'KEY1234567', clientId: 'queen-test-client' };

/** gitHubAccount adds a GitHub account whose primary email is email (verified or not). */
function gitHubAccount(email: string, verified = true, publicEmail: string | null = null) {
  const id = `gh-${randomBytes(6).toString('hex')}`;
  github.accounts.set(id, {
    login: id,
    name: 'Grace GitHub',
    email: publicEmail,
    emails: [
      { email: `other-${id}@example.test`, primary: false, verified: true },
      ...(email ? [{ email, primary: true, verified }] : []),
    ],
  });
  return id;
}

/** signInWithGitHub runs a GitHub sign-in as account (or cancels) and returns our callback's answer. */
async function signInWithGitHub(account: string, deny = false): Promise<Response> {
  const jar = new CookieJar();
  const started = await startSignIn(server, jar, GITHUB);
  if (!started.providerUrl) throw new Error(`login refused: ${started.refused?.status}`);
  return visit(jar, await atGitHub(started.providerUrl, account, deny));
}

test.describe.serial('sign-in with GitHub, Microsoft and a form_post callback', () => {
  test.beforeAll(async () => {
    // One CLI process per secret the start requires (twelve): generous on a loaded machine.
    test.setTimeout(180_000);
    github = await startGitHubDouble();
    const appleKey = await generateKeyPair('ES256', { extractable: true });
    setup = await startSignInServer(
      { APP_VISIBILITY: 'private_with_login', APP_SELF_SIGNUP: 'true' },
      {
        authConfig: { enableGithubLogin: true, enableMicrosoftLogin: true, enableAppleLogin: true },
        // Only what the start requires goes through the CLI (a process each); the endpoints follow below.
        secrets: async () => ({
          github_oauth_client_id: github.clientId,
          github_oauth_client_secret: github.clientSecret,
          microsoft_oauth_client_id: 'queen-test-client',
          microsoft_oauth_client_secret: 'queen-test-client-secret-0123456789',
          apple_oauth_client_id: APPLE.clientId,
          apple_oauth_team_id: APPLE.teamId,
          apple_oauth_key_id: APPLE.keyId,
          apple_oauth_private_key: await exportPKCS8(appleKey.privateKey),
        }),
      },
    );
    const endpoints = {
      github_oauth_authorize_url: `${github.url}/login/oauth/authorize`,
      github_oauth_token_url: `${github.url}/login/oauth/access_token`,
      github_oauth_userinfo_url: `${github.url}/user`,
      github_oauth_emails_url: `${github.url}/user/emails`,
      microsoft_oauth_discovery_url: `${setup.provider.issuer}/.well-known/openid-configuration`,
    };
    apple = await startAppleFront(setup.provider, {
      ...APPLE,
      publicKey: await exportSPKI(appleKey.publicKey),
    });
    Object.assign(endpoints, { apple_oauth_discovery_url: apple.discoveryUrl });
    for (const [name, value] of Object.entries(endpoints)) await setup.setSecret(name, value);
    server = setup.server;
    github.redirectUri = `${server.url}/api/apps/auth/callback`;
  });

  test.afterAll(async () => {
    await apple?.close();
    await setup?.stop();
    await github?.close();
  });

  test('GitHub: a new user is created from the primary verified email, with PKCE and state', async () => {
    const email = uniqueEmail('github-new');
    const response = await signInWithGitHub(gitHubAccount(email));
    expect(response.status).toBe(302);
    const { target, token, isNewUser } = tokenOf(response);
    expect(target.pathname).toBe('/home');
    expect(isNewUser).toBe('true');
    const me = await userClient(server, token).auth.me();
    expect(me.email).toBe(email);
    expect(me.full_name).toBe('Grace GitHub');
    // The double checked the client secret, the code and the PKCE verifier, and refused nothing.
    expect(github.refusals).toEqual([]);
  });

  test('GitHub: an existing user is signed in when the primary email is verified', async () => {
    const email = uniqueEmail('github-existing');
    const existing = await createUser(server, { email });
    const { token, isNewUser } = tokenOf(await signInWithGitHub(gitHubAccount(email)));
    expect(isNewUser).toBe('false');
    expect((await userClient(server, token).auth.me()).id).toBe(existing.user.id);
  });

  test('GitHub: an unverified primary email, or only a public one, does not take over an account', async () => {
    const email = uniqueEmail('github-unverified');
    await createUser(server, { email });
    const unverified = await signInWithGitHub(gitHubAccount(email, false));
    expect(unverified.status).toBe(403);
    expect(await unverified.text()).toContain('did not confirm that you own this email address');
    // No email list entry: `/user`'s public email is read, never as verified.
    const publicOnly = await signInWithGitHub(gitHubAccount('', true, email));
    expect(publicOnly.status).toBe(403);
  });

  test('GitHub: a cancelled consent is refused before any code exchange', async () => {
    const before = github.tokenRequests;
    const cancelled = await signInWithGitHub('nobody', true);
    expect(cancelled.status).toBe(403);
    expect(await cancelled.text()).toContain('cancelled');
    expect(github.tokenRequests).toBe(before);
  });

  test('GitHub: a code the provider refuses is a 401 naming its reason', async () => {
    const jar = new CookieJar();
    const started = await startSignIn(server, jar, GITHUB);
    const callback = new URL(
      await atGitHub(started.providerUrl ?? '', gitHubAccount(uniqueEmail('gh-code'))),
    );
    callback.searchParams.set('code', 'not-a-code');
    const refused = await visit(jar, callback.href);
    expect(refused.status).toBe(401);
    expect(await refused.text()).toContain('bad_verification_code');
  });

  test('GitHub: a token endpoint that cannot be reached is a 502 within 10 s, never a hang', async () => {
    const dead = await freePort();
    await setup.setSecret('github_oauth_token_url', `http://127.0.0.1:${dead}/login/oauth/access_token`);
    try {
      const began = Date.now();
      const response = await signInWithGitHub(gitHubAccount(uniqueEmail('gh-dead')));
      expect(response.status).toBe(502);
      expect(Date.now() - began).toBeLessThan(11_000);
    } finally {
      await setup.setSecret('github_oauth_token_url', `${github.url}/login/oauth/access_token`);
    }
  });

  test('Microsoft through microsoft_oauth_discovery_url: a new user is signed in', async () => {
    const email = uniqueEmail('microsoft');
    const id = `ms-${randomBytes(6).toString('hex')}`;
    setup.provider.accounts.set(id, { email, email_verified: true, name: 'Mia Microsoft' });
    const response = await signInThrough(
      server,
      setup.provider,
      '/api/apps/auth/microsoft/login?from_url=%2F',
      id,
    );
    expect(response.status).toBe(302);
    const { token, isNewUser } = tokenOf(response);
    expect(isNewUser).toBe('true');
    expect((await userClient(server, token).auth.me()).email).toBe(email);
  });

  test('a form_post callback is answered with a 303 to the GET callback, which completes the sign-in', async () => {
    const jar = new CookieJar();
    const started = await startSignIn(server, jar, `/api/apps/${APP}/auth/sso/login?from_url=%2F`);
    const id = `fp-${randomBytes(6).toString('hex')}`;
    setup.provider.accounts.set(id, { email: uniqueEmail('form-post'), email_verified: true });
    const callback = new URL(await atProvider(setup.provider, started.providerUrl ?? '', id));
    const form = Object.fromEntries(callback.searchParams);
    // The provider's cross-site POST carries no SameSite=Lax cookie.
    const posted = await visit(new CookieJar(), `${server.url}/api/apps/auth/callback`, {
      ...form,
      id_token: 'not.carried.on',
      user: '{"name":{"firstName":"Ann","lastName":"Apple"}}',
    });
    expect(posted.status).toBe(303);
    const location = new URL(posted.headers.get('location') ?? '', server.url);
    expect(location.pathname).toBe('/api/apps/auth/callback');
    expect(location.searchParams.get('state')).toBe(form.state);
    expect(location.searchParams.get('code')).toBe(form.code);
    expect(location.searchParams.has('id_token')).toBe(false);
    const done = await visit(jar, location.href);
    expect(done.status).toBe(302);
    expect(tokenOf(done).isNewUser).toBe('true');

    const tooBig = await visit(new CookieJar(), `${server.url}/api/apps/auth/final-callback`, {
      state: 'x',
      user: 'a'.repeat(20_000),
    });
    expect(tooBig.status).toBe(413);
  });

  test('Apple: a signed client secret, and the form_post answer brought back as a GET with the cookie', async () => {
    /** signInWithApple signs accountId in, the provider answering with a form the test POSTs cross-site. */
    const signInWithApple = async (accountId: string) => {
      const jar = new CookieJar();
      const started = await startSignIn(server, jar, '/api/apps/auth/apple/login?from_url=%2F');
      expect(new URL(started.providerUrl ?? '').searchParams.get('response_mode')).toBe('form_post');
      const { action, fields } = await atProviderFormPost(
        setup.provider,
        started.providerUrl ?? '',
        accountId,
      );
      expect(action).toBe(`${server.url}/api/apps/auth/callback`);
      // The cross-site POST carries no SameSite=Lax cookie; Apple adds the name on a first sign-in.
      const user = JSON.stringify({ name: { firstName: 'Ann', lastName: 'Apple' } });
      const posted = await visit(new CookieJar(), action, { ...fields, user });
      expect(posted.status).toBe(303);
      return visit(jar, new URL(posted.headers.get('location') ?? '', server.url).href);
    };
    const email = uniqueEmail('apple-new');
    setup.provider.accounts.set('apple-new', { email, email_verified: true });
    const created = await signInWithApple('apple-new');
    expect(created.status).toBe(302);
    const me = await userClient(server, tokenOf(created).token).auth.me();
    expect(me.email).toBe(email);
    expect(me.full_name).toBe('Ann Apple');

    // Apple's email_verified may be the string "true": it signs in to an existing account.
    const existingEmail = uniqueEmail('apple-existing');
    const existing = await createUser(server, { email: existingEmail });
    setup.provider.accounts.set('apple-existing', {
      email: existingEmail,
      email_verified: 'true' as unknown as boolean,
    });
    const signedIn = await signInWithApple('apple-existing');
    expect(tokenOf(signedIn).isNewUser).toBe('false');
    expect((await userClient(server, tokenOf(signedIn).token).auth.me()).id).toBe(existing.user.id);
    expect(apple.refusals).toEqual([]);
    expect(apple.accepted).toBe(2);
  });
});
