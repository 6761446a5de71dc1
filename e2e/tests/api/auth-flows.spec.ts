import { expect, test } from '../../support/test';
import {
  AUTH_ENV,
  SERVICE_TOKEN,
  PASSWORD,
  api,
  createUser,
  failure,
  signUp,
  uniqueEmail,
  userClient,
} from '../../support/auth-helpers';
import { linkFrom, mailsTo, otpFrom, waitForMail } from '../../support/outbox';
import { apiScenarios } from '../../support/api-scenario';
import { startServer, type RunningServer } from '../../support/server-process';

// Sign-up, one-time codes, sign-in, password reset and change, and the signed-in user, through the SDK.
const appId = 'queen-solana';
let server: RunningServer;

test.beforeAll(async () => {
  server = await startServer({ env: AUTH_ENV });
});

test.afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

test('register mails a code; verifyOtp returns a token that works for auth.me()', async () => {
  const email = uniqueEmail('reg');
  const client = userClient(server);
  const registered = await client.auth.register({ email, password: PASSWORD });
  expect(registered).toMatchObject({ success: true });
  const code = otpFrom(await waitForMail(server.dataDir, email));
  const verified = (await client.auth.verifyOtp({ email, otpCode: code })) as Record<string, unknown>;
  expect(verified.success).toBe(true);
  expect(verified.user).toMatchObject({
    email,
    role: 'user',
    is_verified: true,
    disabled: false,
    app_id: appId,
  });
  expect(JSON.stringify(verified)).not.toContain('password');
  client.auth.setToken(String(verified.access_token));
  expect(await client.auth.me()).toMatchObject({ email, id: (verified.user as { id: string }).id });
  expect(await client.auth.isAuthenticated()).toBe(true);
});

test('re-registering before verification issues a new code and voids the old one', async () => {
  const email = uniqueEmail('rereg');
  const client = userClient(server);
  await client.auth.register({ email, password: PASSWORD });
  const first = otpFrom(await waitForMail(server.dataDir, email, 0));
  await client.auth.register({ email, password: PASSWORD });
  const second = otpFrom(await waitForMail(server.dataDir, email, 1));
  if (first !== second) {
    expect((await failure(client.auth.verifyOtp({ email, otpCode: first }))).status).toBe(400);
  }
  expect(await client.auth.verifyOtp({ email, otpCode: second })).toMatchObject({ success: true });
});

test('resendOtp mails a new code; unknown emails get the same answer', async () => {
  const email = uniqueEmail('resend');
  const client = userClient(server);
  await client.auth.register({ email, password: PASSWORD });
  await waitForMail(server.dataDir, email, 0);
  const known = await client.auth.resendOtp(email);
  const unknown = await client.auth.resendOtp(uniqueEmail('nobody'));
  expect(unknown).toEqual(known);
  const code = otpFrom(await waitForMail(server.dataDir, email, 1));
  expect(await client.auth.verifyOtp({ email, otpCode: code })).toMatchObject({ success: true });
});

test('five wrong codes void the code, even the right one then fails', async () => {
  const email = uniqueEmail('wrong');
  const client = userClient(server);
  await client.auth.register({ email, password: PASSWORD });
  const code = otpFrom(await waitForMail(server.dataDir, email));
  const wrong = code === '111111' ? '222222' : '111111';
  for (let attempt = 0; attempt < 5; attempt++) {
    const error = await failure(client.auth.verifyOtp({ email, otpCode: wrong }));
    expect(error.status).toBe(400);
  }
  expect((await failure(client.auth.verifyOtp({ email, otpCode: code }))).status).toBe(400);
});

test('login returns {access_token, user}; wrong password and unknown email get the same 401', async () => {
  const email = uniqueEmail('login');
  await signUp(server, email);
  const result = await userClient(server).auth.loginViaEmailPassword(email.toUpperCase(), PASSWORD);
  expect(Object.keys(result).sort()).toEqual(['access_token', 'user']);
  expect(result.user).toMatchObject({ email });
  const wrongPassword = await api(server, `/api/apps/${appId}/auth/login`, {
    body: { email, password: 'not the password' },
  });
  const unknownEmail = await api(server, `/api/apps/${appId}/auth/login`, {
    body: { email: uniqueEmail('ghost'), password: 'not the password' },
  });
  expect(wrongPassword.status).toBe(401);
  expect(unknownEmail.status).toBe(401);
  expect(unknownEmail.json).toEqual(wrongPassword.json);
});

test('an unverified account cannot log in', async () => {
  const email = uniqueEmail('unverified');
  await userClient(server).auth.register({ email, password: PASSWORD });
  const error = await failure(userClient(server).auth.loginViaEmailPassword(email, PASSWORD));
  expect(error.status).toBe(403);
});

test('reset: same answer for unknown emails; the link is single-use and sets the password', async () => {
  const email = uniqueEmail('reset');
  await signUp(server, email);
  const client = userClient(server);
  const seen = (await mailsTo(server.dataDir, email)).length;
  const known = await client.auth.resetPasswordRequest(email);
  const unknown = await client.auth.resetPasswordRequest(uniqueEmail('ghost'));
  expect(unknown).toEqual(known);
  const { url, token } = linkFrom(await waitForMail(server.dataDir, email, seen), 'reset_token');
  expect(new URL(url).pathname).toBe('/login');
  await client.auth.resetPassword({ resetToken: token, newPassword: 'brand new password' });
  const again = await failure(
    client.auth.resetPassword({ resetToken: token, newPassword: 'another password' }),
  );
  expect(again.status).toBe(400);
  expect((await failure(client.auth.loginViaEmailPassword(email, PASSWORD))).status).toBe(401);
  expect((await client.auth.loginViaEmailPassword(email, 'brand new password')).user).toMatchObject({
    email,
  });
  expect(
    (await failure(client.auth.resetPassword({ resetToken: 'made-up', newPassword: 'whatever1' }))).status,
  ).toBe(400);
});

test('change-password: self with the current password; for others an admin only mails a reset link', async () => {
  const alice = await signUp(server, uniqueEmail('alice'));
  const bob = await signUp(server, uniqueEmail('bob'));
  const asAlice = userClient(server, alice.token);
  const wrongCurrent = await failure(
    asAlice.auth.changePassword({
      userId: alice.user.id,
      currentPassword: 'nope nope',
      newPassword: 'next password',
    }),
  );
  expect(wrongCurrent.status).toBe(400);
  expect(wrongCurrent.message).toContain('current_password');
  const changed = (await asAlice.auth.changePassword({
    userId: alice.user.id,
    currentPassword: PASSWORD,
    newPassword: 'next password',
  })) as { access_token: string };
  await userClient(server).auth.loginViaEmailPassword(alice.user.email, 'next password');
  // The change signs out every earlier session; the answer carries the caller's new token.
  expect((await failure(asAlice.auth.me())).status).toBe(401);
  const asAliceNow = userClient(server, changed.access_token);

  const forBob = await failure(
    asAliceNow.auth.changePassword({
      userId: bob.user.id,
      currentPassword: 'next password',
      newPassword: 'hijacked!!',
    }),
  );
  expect(forBob.status).toBe(403);
  await userClient(server).auth.loginViaEmailPassword(bob.user.email, PASSWORD);

  // An admin never sets another user's password: the user is mailed a reset link instead.
  const admin = await createUser(server, { email: uniqueEmail('admin'), role: 'admin' });
  const bobMails = (await mailsTo(server.dataDir, bob.user.email)).length;
  await userClient(server, admin.token).auth.changePassword({
    userId: bob.user.id,
    currentPassword: PASSWORD,
    newPassword: 'set by admin',
  });
  expect(linkFrom(await waitForMail(server.dataDir, bob.user.email, bobMails), 'reset_token').token).not.toBe(
    '',
  );
  await userClient(server).auth.loginViaEmailPassword(bob.user.email, PASSWORD);
  const anonymous = await failure(
    userClient(server).auth.changePassword({
      userId: bob.user.id,
      currentPassword: 'x',
      newPassword: 'yyyyyyyy',
    }),
  );
  expect(anonymous.status).toBe(401);
});

test('updateMe changes full_name and custom fields but not role or email', async () => {
  const { token, user } = await signUp(server, uniqueEmail('me'));
  const client = userClient(server, token);
  const updated = await client.auth.updateMe({ full_name: 'Queen Fan', favourite: 'gold' });
  expect(updated).toMatchObject({ id: user.id, full_name: 'Queen Fan', favourite: 'gold', role: 'user' });
  for (const field of ['role', 'email', 'id', 'created_date']) {
    const error = await failure(client.auth.updateMe({ [field]: 'admin@evil.test' }));
    expect(error.status).toBe(400);
    expect(error.message).toContain(field);
  }
  expect(await client.auth.me()).toMatchObject({ role: 'user', email: user.email, full_name: 'Queen Fan' });
});

const malformed: [string, unknown, string][] = [
  ['register', {}, 'email'],
  ['register', { email: 'not-an-email', password: PASSWORD }, 'email'],
  ['register', { email: 'a@b.test', password: 'short' }, 'password'],
  ['register', { email: 'a@b.test', password: 12345678 }, 'password'],
  ['register', { email: 'a@b.test', password: PASSWORD, turnstile_token: 5 }, 'turnstile_token'],
  ['verify-otp', { email: 'a@b.test' }, 'otp_code'],
  ['verify-otp', { email: 'a@b.test', otp_code: '12ab56' }, 'otp_code'],
  ['resend-otp', { email: 42 }, 'email'],
  ['login', { email: 'a@b.test' }, 'password'],
  ['login', [], 'body'],
  ['reset-password-request', {}, 'email'],
  ['reset-password', { new_password: PASSWORD }, 'reset_token'],
  ['reset-password', { reset_token: 'x', new_password: 'short' }, 'new_password'],
];

apiScenarios(
  malformed.map(([route, body, field]) => ({
    name: `auth/${route} with ${JSON.stringify(body)} is 400 naming ${field}`,
    caller: 'anonymous',
    request: { method: 'POST', path: `/api/apps/${appId}/auth/${route}`, body },
    status: 400,
    message: field,
  })),
  { baseUrl: () => server.url },
);

test('a body that is not JSON or is empty is 400, never 500', async () => {
  for (const rawBody of ['{not json', '', 'null', '"text"']) {
    const result = await api(server, `/api/apps/${appId}/auth/login`, { rawBody });
    expect(result.status).toBe(400);
    expect(typeof result.json.message).toBe('string');
  }
});

test('change-password, invite and updateMe with malformed bodies are 400 naming the field', async () => {
  const admin = await createUser(server, { email: uniqueEmail('admin-bodies'), role: 'admin' });
  const cases: [string, string, unknown, string][] = [
    ['POST', 'auth/change-password', { user_id: admin.user.id, current_password: PASSWORD }, 'new_password'],
    ['POST', 'users/invite-user', { user_email: 'x@y.test', role: 'owner' }, 'role'],
    ['POST', 'runtime/users/invite-user', { role: 'user' }, 'user_email'],
    ['PUT', 'entities/User/me', { full_name: 7 }, 'full_name'],
    ['PUT', 'entities/User/me', ['x'], 'body'],
  ];
  for (const [method, path, body, field] of cases) {
    const result = await api(server, `/api/apps/${appId}/${path}`, { method, body, token: admin.token });
    expect(result.status, path).toBe(400);
    expect(String(result.json.message), path).toContain(field);
  }
});

test.describe('sign-in sessions (the console sign-in)', () => {
  const sessions = `/api/apps/${appId}/auth/sessions`;
  const startFrom = (token: string) =>
    fetch(`${server.url}${sessions}`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  const end = (token?: string) =>
    fetch(`${server.url}${sessions}/current`, {
      method: 'DELETE',
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
  const me = async (token: string) =>
    (await api(server, `/api/apps/${appId}/entities/User/me`, { method: 'GET', token })).status;

  test('a password session works until signed out, and signing out leaves other tokens working', async () => {
    const email = uniqueEmail('session');
    const { token: plain } = await createUser(server, { email });
    const started = await api(server, sessions, { body: { email, password: PASSWORD } });
    expect(started.status).toBe(200);
    expect(started.json.user).toMatchObject({ email });
    const session = String(started.json.access_token);
    const traded = await startFrom(plain);
    expect(traded.status).toBe(200);
    const other = String(((await traded.json()) as { access_token: string }).access_token);
    expect(await me(session)).toBe(200);

    const ended = await end(session);
    expect(ended.status).toBe(200);
    expect(await ended.json()).toEqual({ ended: true });
    expect(await me(session)).toBe(401);
    expect((await end(session)).status).toBe(401);
    expect(await me(other)).toBe(200);
    expect(await me(plain)).toBe(200);
  });

  test('refuses a wrong password, the service role, no token, and ending a token of no session', async () => {
    const email = uniqueEmail('session-refused');
    const { token: plain } = await createUser(server, { email });
    expect((await api(server, sessions, { body: { email, password: 'wrong password here' } })).status).toBe(
      401,
    );
    expect((await api(server, sessions, { body: { email } })).status).toBe(400);
    expect((await startFrom(SERVICE_TOKEN)).status).toBe(403);
    expect((await fetch(`${server.url}${sessions}`, { method: 'POST' })).status).toBe(401);
    expect((await end()).status).toBe(401);
    const noSession = await end(plain);
    expect(noSession.status).toBe(400);
    expect(((await noSession.json()) as { message: string }).message).toContain('no session');
  });
});
