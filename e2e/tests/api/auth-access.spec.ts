import { expect, test } from '../../support/test';
import { decodeJwt } from 'jose';
import {
  AUTH_ENV,
  PASSWORD,
  SERVICE_TOKEN,
  api,
  createUser,
  failure,
  serviceClient,
  signUp,
  uniqueEmail,
  userClient,
} from '../../support/auth-helpers';
import { linkFrom, waitForMail } from '../../support/outbox';
import { startServer, type RunningServer } from '../../support/server-process';

// Invitations, SSO tokens, logout redirects, app visibility and disabled users.
const appId = 'queen-solana';
let server: RunningServer;
let privateServer: RunningServer;

test.beforeAll(async () => {
  [server, privateServer] = await Promise.all([
    startServer({ env: AUTH_ENV }),
    startServer({ env: { ...AUTH_ENV, APP_VISIBILITY: 'private_with_login', APP_SELF_SIGNUP: 'false' } }),
  ]);
});

test.afterAll(async () => {
  expect(await server.stop()).toBe(0);
  expect(await privateServer.stop()).toBe(0);
});

for (const route of ['auth.inviteUser', 'users.inviteUser'] as const) {
  test(`${route}: admin only; the invitee sets a password with the invite token and logs in with the role`, async () => {
    const admin = await createUser(server, { email: uniqueEmail('inviter'), role: 'admin' });
    const member = await createUser(server, { email: uniqueEmail('member') });
    const invite = (token: string, email: string, role: string) => {
      const client = userClient(server, token) as unknown as {
        auth: { inviteUser(e: string, r: string): Promise<unknown> };
        users: { inviteUser(e: string, r: string): Promise<unknown> };
      };
      return route === 'auth.inviteUser'
        ? client.auth.inviteUser(email, role)
        : client.users.inviteUser(email, role);
    };
    const invitee = uniqueEmail('invitee');
    expect((await failure(invite(member.token, invitee, 'user'))).status).toBe(403);
    expect((await failure(userClient(server).auth.inviteUser(invitee, 'user'))).status).toBe(401);
    await invite(admin.token, invitee, 'admin');
    const { url, token } = linkFrom(await waitForMail(server.dataDir, invitee), 'invite_token');
    expect(new URL(url).pathname).toBe('/login');
    await userClient(server).auth.resetPassword({ resetToken: token, newPassword: 'invited password' });
    const login = await userClient(server).auth.loginViaEmailPassword(invitee, 'invited password');
    expect(login.user).toMatchObject({ email: invitee, role: 'admin', is_verified: true });
  });
}

test('invite-user rejects a role other than user or admin with 400', async () => {
  const admin = await createUser(server, { email: uniqueEmail('inviter-role'), role: 'admin' });
  const result = await api(server, `/api/apps/${appId}/users/invite-user`, {
    token: admin.token,
    body: { user_email: uniqueEmail('x'), role: 'owner' },
  });
  expect(result.status).toBe(400);
  expect(String(result.json.message)).toContain('role');
});

test('SSO access and id tokens need the service role', async () => {
  const { user } = await signUp(server, uniqueEmail('sso'));
  const sso = serviceClient(server).asServiceRole.sso;
  const { access_token } = (await sso.getAccessToken(user.id)) as { access_token: string };
  expect(await userClient(server, access_token).auth.me()).toMatchObject({ id: user.id });
  const idToken = (await sso.getIdToken(user.id)) as unknown as string;
  expect(decodeJwt(idToken)).toMatchObject({ sub: user.id, email: user.email, aud: appId });
  expect((await failure(sso.getAccessToken('no-such-user'))).status).toBe(404);

  const wrongService = serviceClient(server, 'not-the-service-token').asServiceRole.sso;
  expect((await failure(wrongService.getAccessToken(user.id))).status).toBe(401);
  const asUser = serviceClient(server, access_token).asServiceRole.sso;
  expect((await failure(asUser.getIdToken(user.id))).status).toBe(403);
  const anonymous = await api(server, `/api/apps/${appId}/auth/sso/accesstoken/${user.id}`, {
    method: 'GET',
  });
  expect(anonymous.status).toBe(401);
});

test('the service role reads User/me on behalf of a user', async () => {
  const { token, user } = await signUp(server, uniqueEmail('behalf'));
  const response = await fetch(`${server.url}/api/apps/${appId}/entities/User/me`, {
    headers: { authorization: `Bearer ${SERVICE_TOKEN}`, 'on-behalf-of': `Bearer ${token}` },
  });
  expect(await response.json()).toMatchObject({ id: user.id });
});

test('logout redirects only within the site', async () => {
  const cases: [string, string][] = [
    ['/bye', '/bye'],
    [`${server.url}/after?x=1`, `${server.url}/after?x=1`],
    ['https://evil.example/phish', '/'],
    ['//evil.example/phish', '/'],
    ['/\\evil.example', '/'],
    ['javascript:alert(1)', '/'],
  ];
  for (const [fromUrl, expected] of cases) {
    const response = await fetch(
      `${server.url}/api/apps/auth/logout?from_url=${encodeURIComponent(fromUrl)}`,
      {
        redirect: 'manual',
      },
    );
    expect(response.status, fromUrl).toBe(302);
    expect(response.headers.get('location'), fromUrl).toBe(expected);
  }
  const bare = await fetch(`${server.url}/api/apps/auth/logout`, { redirect: 'manual' });
  expect(bare.headers.get('location')).toBe('/');
});

test('loginWithProvider with a provider the app does not enable: a readable 404 page with links back, JSON outside a browser', async ({
  page,
}) => {
  const back = `${server.url}/some/page?tab=2`;
  const google = `${server.url}/api/apps/auth/login?app_id=${appId}&from_url=${encodeURIComponent(back)}`;
  const response = await page.goto(google);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'Sign-in with Google is not available here',
  );
  await expect(page.getByRole('link', { name: 'Back to the app' })).toHaveAttribute('href', back);
  await page.getByRole('link', { name: 'Sign in with e-mail' }).click();
  await expect(page).toHaveURL(`${server.url}/login?from_url=${encodeURIComponent(back)}`);

  // Another provider, SSO, and a from_url off this site (never linked to).
  const evil = encodeURIComponent('https://evil.example/');
  await page.goto(`${server.url}/api/apps/auth/microsoft/login?app_id=${appId}&from_url=${evil}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Microsoft');
  await expect(page.getByRole('link', { name: 'Back to the app' })).toHaveAttribute('href', '/');
  await page.goto(`${server.url}/api/apps/${appId}/auth/sso/login?from_url=${evil}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('single sign-on');

  // A provider named like an Object.prototype member is a provider name like any other (it was a 500).
  const odd = await fetch(`${server.url}/api/apps/auth/constructor/login`, {
    headers: { accept: 'text/html' },
  });
  expect(odd.status).toBe(404);
  expect(odd.headers.get('content-security-policy')).toContain("default-src 'none'");
  expect(odd.headers.get('x-content-type-options')).toBe('nosniff');
  expect(await odd.text()).toContain('Sign-in with constructor is not available here');
  // Outside a browser, the same refusal is JSON.
  const json = await fetch(`${server.url}/api/apps/auth/constructor/login`);
  expect(json.status).toBe(404);
  expect(await json.json()).toEqual({ message: 'Sign-in with constructor is not enabled for this app' });
});

test('a disabled user is refused: token 401, login 401', async () => {
  const email = uniqueEmail('disabled');
  const { token } = await createUser(server, { email });
  const disabled = await api(server, `/api/apps/${appId}/admin/users`, {
    method: 'PATCH',
    token: SERVICE_TOKEN,
    body: { email, disabled: true },
  });
  expect(disabled.status).toBe(200);
  expect((await failure(userClient(server, token).auth.me())).status).toBe(401);
  expect((await failure(userClient(server).auth.loginViaEmailPassword(email, PASSWORD))).status).toBe(401);
});

test('the admin API is for the service role only', async () => {
  const admin = await createUser(server, { email: uniqueEmail('not-service'), role: 'admin' });
  const body = { email: uniqueEmail('x'), password: PASSWORD };
  expect((await api(server, `/api/apps/${appId}/admin/users`, { body })).status).toBe(401);
  expect((await api(server, `/api/apps/${appId}/admin/users`, { body, token: admin.token })).status).toBe(
    403,
  );
});

test('private app: anonymous 403 auth_required, approved 200, self-signed-up 403 user_not_registered', async () => {
  const settings = () => userClient(privateServer);
  const anonymous = await failure(settings().app.getPublicSettings());
  expect(anonymous.status).toBe(403);
  expect((anonymous.data as { extra_data: { reason: string } }).extra_data.reason).toBe('auth_required');
  const badToken = await failure(userClient(privateServer, 'garbage').app.getPublicSettings());
  expect((badToken.data as { extra_data: { reason: string } }).extra_data.reason).toBe('auth_required');

  const approved = await createUser(privateServer, { email: uniqueEmail('approved') });
  expect(await userClient(privateServer, approved.token).app.getPublicSettings()).toEqual({
    id: appId,
    public_settings: 'private_with_login',
  });

  const stranger = await signUp(privateServer, uniqueEmail('stranger'));
  const refused = await failure(userClient(privateServer, stranger.token).app.getPublicSettings());
  expect(refused.status).toBe(403);
  expect((refused.data as { extra_data: { reason: string } }).extra_data.reason).toBe('user_not_registered');

  // An admin role change approves the account.
  await api(privateServer, `/api/apps/${appId}/admin/users`, {
    method: 'PATCH',
    token: SERVICE_TOKEN,
    body: { email: stranger.user.email, role: 'user' },
  });
  expect(await userClient(privateServer, stranger.token).app.getPublicSettings()).toMatchObject({
    id: appId,
  });
});

test('app settings change through the admin API', async () => {
  const path = `/api/apps/${appId}/admin/settings`;
  const changed = await api(server, path, {
    method: 'PUT',
    token: SERVICE_TOKEN,
    body: { visibility: 'public_with_login' },
  });
  expect(changed.json).toMatchObject({ public_settings: 'public_with_login', self_signup: true });
  expect(await userClient(server).app.getPublicSettings()).toMatchObject({
    public_settings: 'public_with_login',
  });
  const bad = await api(server, path, {
    method: 'PUT',
    token: SERVICE_TOKEN,
    body: { visibility: 'everyone' },
  });
  expect(bad.status).toBe(400);
  expect(String(bad.json.message)).toContain('visibility');
  await api(server, path, {
    method: 'PUT',
    token: SERVICE_TOKEN,
    body: { visibility: 'public_without_login' },
  });
});
