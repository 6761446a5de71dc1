import { request as httpRequest } from 'node:http';
import { expect, test } from '../../support/test';
import { SignJWT, decodeJwt } from 'jose';
import {
  AUTH_ENV,
  PASSWORD,
  SERVICE_TOKEN,
  api,
  createUser,
  signUp,
  uniqueEmail,
  userClient,
} from '../../support/auth-helpers';
import { linkFrom, mailsTo, otpFrom, waitForMail } from '../../support/outbox';
import { connectSocket, eventually, received } from '../../support/realtime-client';
import { DEFAULT_APP_ID } from '../../support/sdk-client';
import { startServer, type RunningServer } from '../../support/server-process';

// The security contract of accounts (issue 8, items 4–7 and 16): mailed links, pending sign-ups, token
// lifetime and who may set a password. Each row runs against a real server on PGlite (`security`) and
// PostgreSQL (`security-postgres`); "stored effect" is read back from the outbox, a sign-in or User/me.

const appId = DEFAULT_APP_ID;
const PUBLIC_URL = 'https://accounts.example.test';
const JWT_SECRET = 'accounts-spec-jwt-secret-0123456789abcdefghijklmnopqrstuvwxyz';
const EVIL_HOST = 'evil.example';

/** Server is which server a row runs on: without PUBLIC_URL (local default) or with it. */
type Server = 'no PUBLIC_URL' | 'PUBLIC_URL set';
type Caller = 'anonymous' | 'user' | 'other user' | 'admin' | 'service';

interface Scenario {
  name: string;
  server: Server;
  caller: Caller;
  request: string;
  status: number;
  effect: string;
  /** run sends the request as caller and checks the stored effect; it returns the status seen. */
  run: (ctx: Context) => Promise<number>;
}

interface Context {
  server: RunningServer;
}

/** raw sends a JSON POST with a chosen Host header (fetch would not let a test forge Host). */
function raw(
  server: RunningServer,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: Record<string, unknown> }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: '127.0.0.1',
        port: server.port,
        path,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(payload)),
          ...headers,
        },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => {
          let json: Record<string, unknown> = {};
          try {
            json = JSON.parse(text) as Record<string, unknown>;
          } catch {
            json = { text };
          }
          resolve({ status: response.statusCode ?? 0, json });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

/** redirectOf sends a GET with a chosen Host header and returns the status and Location. */
function redirectOf(
  server: RunningServer,
  path: string,
  host: string,
): Promise<{ status: number; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: '127.0.0.1', port: server.port, path, headers: { host } },
      (response) => {
        response.resume();
        resolve({ status: response.statusCode ?? 0, location: response.headers.location });
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

const sleep = (ms: number) => new Promise((wait) => setTimeout(wait, ms));

/** noMailWithin checks that `to` gets no new mail for a while (mail goes out after the answer). */
async function expectNoNewMail(server: RunningServer, to: string, seen: number) {
  await sleep(700);
  expect((await mailsTo(server.dataDir, to)).length).toBe(seen);
}

const meStatus = async (server: RunningServer, token: string) =>
  (await api(server, `/api/apps/${appId}/entities/User/me`, { method: 'GET', token })).status;

const loginStatus = async (server: RunningServer, email: string, password: string) =>
  (await api(server, `/api/apps/${appId}/auth/login`, { body: { email, password } })).status;

async function requestResetAndReadLink(server: RunningServer, email: string) {
  const seen = (await mailsTo(server.dataDir, email)).length;
  await userClient(server).auth.resetPasswordRequest(email);
  return linkFrom(await waitForMail(server.dataDir, email, seen), 'reset_token');
}

const SCENARIOS: Scenario[] = [
  // 4. Mailed links never come from the Host header.
  {
    name: 'reset request with a forged Host, no PUBLIC_URL',
    server: 'no PUBLIC_URL',
    caller: 'anonymous',
    request: `POST auth/reset-password-request (Host: ${EVIL_HOST})`,
    status: 503,
    effect: 'no mail sent; the message tells the operator to set PUBLIC_URL',
    async run({ server }) {
      const { user } = await signUp(server, uniqueEmail('victim'));
      const seen = (await mailsTo(server.dataDir, user.email)).length;
      const answer = await raw(
        server,
        `/api/apps/${appId}/auth/reset-password-request`,
        { email: user.email },
        { host: EVIL_HOST },
      );
      expect(String(answer.json.message)).toContain('PUBLIC_URL');
      await expectNoNewMail(server, user.email, seen);
      return answer.status;
    },
  },
  {
    name: 'reset request for an unknown email with a forged Host, no PUBLIC_URL',
    server: 'no PUBLIC_URL',
    caller: 'anonymous',
    request: `POST auth/reset-password-request (Host: ${EVIL_HOST}, unknown email)`,
    status: 503,
    effect: 'same answer as for a known email: the refusal says nothing about accounts',
    async run({ server }) {
      const answer = await raw(
        server,
        `/api/apps/${appId}/auth/reset-password-request`,
        { email: uniqueEmail('nobody') },
        { host: EVIL_HOST },
      );
      return answer.status;
    },
  },
  {
    name: 'reset request addressed to the listen address, no PUBLIC_URL',
    server: 'no PUBLIC_URL',
    caller: 'anonymous',
    request: 'POST auth/reset-password-request (Host: 127.0.0.1:<port>)',
    status: 200,
    effect: 'the mail links to the server’s own address (local development keeps working)',
    async run({ server }) {
      const { user } = await signUp(server, uniqueEmail('local'));
      const link = await requestResetAndReadLink(server, user.email);
      expect(new URL(link.url).origin).toBe(server.url);
      return 200;
    },
  },
  {
    name: 'reset request with a forged Host, PUBLIC_URL set',
    server: 'PUBLIC_URL set',
    caller: 'anonymous',
    request: `POST auth/reset-password-request (Host: ${EVIL_HOST})`,
    status: 200,
    effect: 'the mail links to PUBLIC_URL, never to the Host',
    async run({ server }) {
      const { user } = await signUp(server, uniqueEmail('victim'));
      const seen = (await mailsTo(server.dataDir, user.email)).length;
      const answer = await raw(
        server,
        `/api/apps/${appId}/auth/reset-password-request`,
        { email: user.email },
        { host: EVIL_HOST },
      );
      const mail = await waitForMail(server.dataDir, user.email, seen);
      expect(new URL(linkFrom(mail, 'reset_token').url).origin).toBe(PUBLIC_URL);
      expect(mail.text).not.toContain(EVIL_HOST);
      return answer.status;
    },
  },
  {
    name: 'invite with a forged Host, no PUBLIC_URL',
    server: 'no PUBLIC_URL',
    caller: 'admin',
    request: `POST users/invite-user (Host: ${EVIL_HOST})`,
    status: 503,
    effect: 'no invite mail, no user created',
    async run({ server }) {
      const admin = await createUser(server, { email: uniqueEmail('admin'), role: 'admin' });
      const invited = uniqueEmail('invitee');
      const answer = await raw(
        server,
        `/api/apps/${appId}/users/invite-user`,
        { user_email: invited, role: 'user' },
        { host: EVIL_HOST, authorization: `Bearer ${admin.token}` },
      );
      await expectNoNewMail(server, invited, 0);
      const login = await loginStatus(server, invited, PASSWORD);
      expect(login).toBe(401);
      return answer.status;
    },
  },
  {
    name: 'invite with a forged Host, PUBLIC_URL set',
    server: 'PUBLIC_URL set',
    caller: 'admin',
    request: `POST users/invite-user (Host: ${EVIL_HOST})`,
    status: 200,
    effect: 'the invite mail links to PUBLIC_URL',
    async run({ server }) {
      const admin = await createUser(server, { email: uniqueEmail('admin'), role: 'admin' });
      const invited = uniqueEmail('invitee');
      const answer = await raw(
        server,
        `/api/apps/${appId}/users/invite-user`,
        { user_email: invited, role: 'user' },
        { host: EVIL_HOST, authorization: `Bearer ${admin.token}` },
      );
      const mail = await waitForMail(server.dataDir, invited, 0);
      expect(new URL(linkFrom(mail, 'invite_token').url).origin).toBe(PUBLIC_URL);
      return answer.status;
    },
  },

  {
    name: 'logout with a forged Host may not redirect to that host',
    server: 'no PUBLIC_URL',
    caller: 'anonymous',
    request: `GET auth/logout?from_url=http://${EVIL_HOST}/ (Host: ${EVIL_HOST})`,
    status: 302,
    effect: 'Location is `/`: redirect targets come from PUBLIC_URL or the listen address, never Host',
    async run({ server }) {
      const from = encodeURIComponent(`http://${EVIL_HOST}/phish`);
      const answer = await redirectOf(server, `/api/apps/auth/logout?from_url=${from}`, EVIL_HOST);
      expect(answer.location).toBe('/');
      return answer.status;
    },
  },
  {
    name: 'a generated image link with a forged Host does not name that host',
    server: 'no PUBLIC_URL',
    caller: 'anonymous',
    request: `POST integration-endpoints/Core/GenerateImage (Host: ${EVIL_HOST})`,
    status: 200,
    effect: 'the returned url is relative (`/media/…`), not on the forged host',
    async run({ server }) {
      const answer = await raw(
        server,
        `/api/apps/${appId}/integration-endpoints/Core/GenerateImage`,
        { prompt: 'a crowned queen, forged host row' },
        { host: EVIL_HOST },
      );
      expect(String(answer.json.url)).toMatch(/^\/media\//);
      return answer.status;
    },
  },

  // 5. A pending sign-up's password is never replaced, and no code activates a password the mailbox's owner
  //    did not choose: conflicting sign-ups void every code, and only a mailed reset link sets the password.
  {
    name: 'second registration of a pending email with another password',
    server: 'no PUBLIC_URL',
    caller: 'anonymous',
    request: 'POST auth/register (email pending verification, attacker password)',
    status: 200,
    effect:
      'same answer as a fresh sign-up; the victim’s code is voided (never activates the attacker’s password); a reset link sets the victim’s',
    async run({ server }) {
      const email = uniqueEmail('pending');
      const victim = userClient(server);
      const fresh = await api(server, `/api/apps/${appId}/auth/register`, {
        body: { email, password: PASSWORD },
      });
      const code = otpFrom(await waitForMail(server.dataDir, email, 0));
      const attack = await api(server, `/api/apps/${appId}/auth/register`, {
        body: { email, password: 'attacker password' },
      });
      expect(attack.json).toEqual(fresh.json);
      const notice = await waitForMail(server.dataDir, email, 1);
      expect(notice.text).not.toMatch(/code is \d{6}/);
      expect(notice.text).toContain('Forgot password');
      await expect(victim.auth.verifyOtp({ email, otpCode: code })).rejects.toMatchObject({ status: 400 });
      const link = await requestResetAndReadLink(server, email);
      await userClient(server).auth.resetPassword({ resetToken: link.token, newPassword: PASSWORD });
      expect(await loginStatus(server, email, 'attacker password')).toBe(401);
      expect(await loginStatus(server, email, PASSWORD)).toBe(200);
      return attack.status;
    },
  },
  {
    name: 'an attacker’s pending sign-up is not activated by the code mailed to the owner',
    server: 'no PUBLIC_URL',
    caller: 'anonymous',
    request:
      'POST auth/register (attacker first, then the owner), then verify-otp with the first mail’s code',
    status: 200,
    effect:
      'the attacker’s code is voided once the owner signs up; resend mails no code for it; “forgot password” sets the owner’s',
    async run({ server }) {
      const email = uniqueEmail('prehijack');
      await api(server, `/api/apps/${appId}/auth/register`, {
        body: { email, password: 'attacker password' },
      });
      const attackersCode = otpFrom(await waitForMail(server.dataDir, email, 0));
      const owner = await api(server, `/api/apps/${appId}/auth/register`, {
        body: { email, password: PASSWORD },
      });
      const notice = await waitForMail(server.dataDir, email, 1);
      expect(notice.text).not.toMatch(/code is \d{6}/);
      expect(notice.text).toContain('Forgot password');
      const verify = await api(server, `/api/apps/${appId}/auth/verify-otp`, {
        body: { email, otp_code: attackersCode },
      });
      expect(verify.status).toBe(400);
      await userClient(server).auth.resendOtp(email);
      const afterResend = await waitForMail(server.dataDir, email, 2);
      expect(afterResend.text).not.toMatch(/code is \d{6}/);
      const link = await requestResetAndReadLink(server, email);
      await userClient(server).auth.resetPassword({ resetToken: link.token, newPassword: PASSWORD });
      expect(await loginStatus(server, email, 'attacker password')).toBe(401);
      expect(await loginStatus(server, email, PASSWORD)).toBe(200);
      return owner.status;
    },
  },

  // 6. Tokens do not survive a password reset or change, a disable or a role change.
  {
    name: 'old token after a password reset',
    server: 'no PUBLIC_URL',
    caller: 'user',
    request: 'GET entities/User/me with the token from before auth/reset-password',
    status: 401,
    effect: 'the reset voids every earlier token',
    async run({ server }) {
      const { token, user } = await signUp(server, uniqueEmail('reset'));
      expect(await meStatus(server, token)).toBe(200);
      const link = await requestResetAndReadLink(server, user.email);
      await userClient(server).auth.resetPassword({ resetToken: link.token, newPassword: 'new password 1' });
      return meStatus(server, token);
    },
  },
  {
    name: 'old token after a password change',
    server: 'no PUBLIC_URL',
    caller: 'user',
    request: 'GET entities/User/me with the token from before auth/change-password',
    status: 401,
    effect: 'the change voids earlier tokens; the token it answers with works',
    async run({ server }) {
      const { token, user } = await signUp(server, uniqueEmail('change'));
      const changed = await api(server, `/api/apps/${appId}/auth/change-password`, {
        token,
        body: { user_id: user.id, current_password: PASSWORD, new_password: 'new password 2' },
      });
      expect(changed.status).toBe(200);
      expect(await meStatus(server, String(changed.json.access_token))).toBe(200);
      return meStatus(server, token);
    },
  },
  {
    name: 'old token after the operator disables and re-enables the user',
    server: 'no PUBLIC_URL',
    caller: 'user',
    request: 'GET entities/User/me after PATCH admin/users {disabled: true} then {disabled: false}',
    status: 401,
    effect: 'a disable voids the user’s tokens for good',
    async run({ server }) {
      const { token, user } = await signUp(server, uniqueEmail('disable'));
      for (const disabled of [true, false]) {
        const patched = await api(server, `/api/apps/${appId}/admin/users`, {
          method: 'PATCH',
          token: SERVICE_TOKEN,
          body: { email: user.email, disabled },
        });
        expect(patched.status).toBe(200);
      }
      expect(await loginStatus(server, user.email, PASSWORD)).toBe(200);
      return meStatus(server, token);
    },
  },
  {
    name: 'old token after a role change by an admin',
    server: 'no PUBLIC_URL',
    caller: 'user',
    request: 'GET entities/User/me after an admin PUTs entities/User/:id {role: "admin"}',
    status: 401,
    effect: 'a role change voids the user’s tokens',
    async run({ server }) {
      const admin = await createUser(server, { email: uniqueEmail('admin'), role: 'admin' });
      const { token, user } = await signUp(server, uniqueEmail('promoted'));
      const put = await api(server, `/api/apps/${appId}/entities/User/${user.id}`, {
        method: 'PUT',
        token: admin.token,
        body: { role: 'admin' },
      });
      expect(put.status).toBe(200);
      return meStatus(server, token);
    },
  },
  {
    name: 'old token after a role change by the operator',
    server: 'no PUBLIC_URL',
    caller: 'user',
    request: 'GET entities/User/me after PATCH admin/users {role: "admin"}',
    status: 401,
    effect: 'a role change voids the user’s tokens',
    async run({ server }) {
      const { token, user } = await signUp(server, uniqueEmail('operator-role'));
      await api(server, `/api/apps/${appId}/admin/users`, {
        method: 'PATCH',
        token: SERVICE_TOKEN,
        body: { email: user.email, role: 'admin' },
      });
      return meStatus(server, token);
    },
  },
  {
    name: 'a profile change keeps tokens valid',
    server: 'no PUBLIC_URL',
    caller: 'user',
    request: 'GET entities/User/me after PUT entities/User/me {full_name}',
    status: 200,
    effect: 'only password, role and disabled changes void tokens',
    async run({ server }) {
      const { token } = await signUp(server, uniqueEmail('profile'));
      await api(server, `/api/apps/${appId}/entities/User/me`, {
        method: 'PUT',
        token,
        body: { full_name: 'New Name' },
      });
      return meStatus(server, token);
    },
  },

  // 7. No one sets another user's password.
  {
    name: 'an admin changes another admin’s password',
    server: 'no PUBLIC_URL',
    caller: 'admin',
    request: 'POST auth/change-password {user_id: other admin, new_password}',
    status: 200,
    effect: 'the password is not changed; the other admin is mailed a reset link saying an admin asked',
    async run({ server }) {
      const admin = await createUser(server, { email: uniqueEmail('admin'), role: 'admin' });
      const other = await createUser(server, { email: uniqueEmail('other-admin'), role: 'admin' });
      const answer = await api(server, `/api/apps/${appId}/auth/change-password`, {
        token: admin.token,
        body: { user_id: other.user.id, current_password: PASSWORD, new_password: 'taken over!!' },
      });
      expect(await loginStatus(server, other.user.email, 'taken over!!')).toBe(401);
      expect(await loginStatus(server, other.user.email, PASSWORD)).toBe(200);
      expect(await meStatus(server, other.token)).toBe(200);
      const mail = await waitForMail(server.dataDir, other.user.email, 0);
      expect(mail.text).toContain('An admin');
      expect(linkFrom(mail, 'reset_token').url.startsWith(server.url)).toBe(true);
      return answer.status;
    },
  },
  {
    name: 'a user changes another user’s password',
    server: 'no PUBLIC_URL',
    caller: 'other user',
    request: 'POST auth/change-password {user_id: someone else}',
    status: 403,
    effect: 'nothing changes, nothing is mailed',
    async run({ server }) {
      const me = await signUp(server, uniqueEmail('me'));
      const victim = await signUp(server, uniqueEmail('victim'));
      const seen = (await mailsTo(server.dataDir, victim.user.email)).length;
      const answer = await api(server, `/api/apps/${appId}/auth/change-password`, {
        token: me.token,
        body: { user_id: victim.user.id, current_password: PASSWORD, new_password: 'taken over!!' },
      });
      await expectNoNewMail(server, victim.user.email, seen);
      expect(await loginStatus(server, victim.user.email, PASSWORD)).toBe(200);
      return answer.status;
    },
  },

  // 16. Tokens issued in the future are refused.
  {
    name: 'a validly signed token with an iat one day ahead',
    server: 'no PUBLIC_URL',
    caller: 'user',
    request: 'GET entities/User/me with iat = now + 1 day',
    status: 401,
    effect: 'refused (60 s of clock skew is tolerated)',
    async run({ server }) {
      const { user, token } = await signUp(server, uniqueEmail('future'));
      const now = Math.floor(Date.now() / 1000);
      // The forged tokens copy the real one's claims (its token version too); only `iat` moves.
      const { tv } = decodeJwt(token);
      const sign = (iat: number) =>
        new SignJWT({ app_id: appId, tv })
          .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
          .setSubject(user.id)
          .setIssuedAt(iat)
          .setExpirationTime(iat + 30 * 86_400)
          .sign(new TextEncoder().encode(JWT_SECRET));
      expect(await meStatus(server, await sign(now + 10))).toBe(200);
      return meStatus(server, await sign(now + 86_400));
    },
  },
  {
    name: "a user's profile change naming a server-owned column",
    server: 'no PUBLIC_URL',
    caller: 'user',
    request: 'PUT entities/User/me {approved: true, token_version: 0}',
    status: 400,
    effect: 'neither is stored as a custom field shown on the user (issue 18)',
    async run({ server }) {
      const { token } = await signUp(server, uniqueEmail('owned-columns'));
      const me = `/api/apps/${appId}/entities/User/me`;
      const changed = await api(server, me, {
        method: 'PUT',
        token,
        body: { approved: true, token_version: 0 },
      });
      expect(JSON.stringify(changed.json)).toContain('approved');
      const after = await api(server, me, { method: 'GET', token });
      expect(after.json).not.toHaveProperty('approved');
      expect(after.json).not.toHaveProperty('token_version');
      return changed.status;
    },
  },
];

const servers = new Map<Server, RunningServer>();

test.beforeAll(async () => {
  test.setTimeout(120_000); // two servers start at once; a shared machine can be slow to give them a core
  const env = { ...AUTH_ENV, JWT_SECRET };
  const [plain, withPublicUrl] = await Promise.all([
    startServer({ env }),
    startServer({ env: { ...env, PUBLIC_URL } }),
  ]);
  servers.set('no PUBLIC_URL', plain);
  servers.set('PUBLIC_URL set', withPublicUrl);
});

test.afterAll(async () => {
  for (const server of servers.values()) expect(await server.stop()).toBe(0);
});

for (const scenario of SCENARIOS) {
  test(`${scenario.caller}: ${scenario.request} → ${scenario.status} (${scenario.name}; ${scenario.effect})`, async () => {
    const server = servers.get(scenario.server);
    if (!server) throw new Error(`no server "${scenario.server}"`);
    expect(await scenario.run({ server })).toBe(scenario.status);
  });
}

test('without PUBLIC_URL the operator is warned at start-up and when a mail is refused', async () => {
  const server = servers.get('no PUBLIC_URL');
  if (!server) throw new Error('no server');
  expect(server.logs()).toMatch(/PUBLIC_URL is not set/);
  await raw(
    server,
    `/api/apps/${appId}/auth/reset-password-request`,
    { email: uniqueEmail('x') },
    {
      host: EVIL_HOST,
    },
  );
  await expect.poll(() => server.logs()).toMatch(/server setting missing/);
  expect(servers.get('PUBLIC_URL set')?.logs()).not.toMatch(/PUBLIC_URL is not set/);
});

// 16a (register timing) is checked structurally, not by the clock: server/src/services/auth/
// sign-up-service.test.ts asserts every path hashes once and answers before any mail is sent.
test('register answers alike for a new, a pending and a verified email', async () => {
  const server = servers.get('no PUBLIC_URL');
  if (!server) throw new Error('no server');
  const verified = await signUp(server, uniqueEmail('taken'));
  const pendingEmail = uniqueEmail('pending');
  await api(server, `/api/apps/${appId}/auth/register`, {
    body: { email: pendingEmail, password: PASSWORD },
  });
  const answers = [];
  for (const email of [uniqueEmail('fresh'), pendingEmail, verified.user.email]) {
    const answer = await api(server, `/api/apps/${appId}/auth/register`, {
      body: { email, password: 'another password' },
    });
    answers.push({ status: answer.status, json: answer.json });
  }
  expect(answers[1]).toEqual(answers[0]);
  expect(answers[2]).toEqual(answers[0]);
});

test('a realtime socket stops hearing as its user once the password changes', async () => {
  const server = servers.get('PUBLIC_URL set');
  if (!server) throw new Error('the PUBLIC_URL server did not start');
  const alice = await createUser(server, { email: uniqueEmail('socket') });
  const room = `entities:${appId}:User`;
  const oldSocket = await connectSocket(server.url, [room], alice.token);
  const heardByOld = received<unknown>(oldSocket, 'update_model');
  try {
    const changed = await api(server, `/api/apps/${appId}/auth/change-password`, {
      token: alice.token,
      body: { user_id: alice.user.id, current_password: PASSWORD, new_password: 'a brand new password' },
    });
    expect(changed.status).toBe(200);
    const newSocket = await connectSocket(server.url, [room], String(changed.json.access_token));
    const heardByNew = received<unknown>(newSocket, 'update_model');
    try {
      const rename = () =>
        api(server, `/api/apps/${appId}/entities/User/${alice.user.id}`, {
          method: 'PUT',
          token: SERVICE_TOKEN,
          body: { full_name: `Alice ${Date.now()}` },
        }).then(() => undefined);
      expect(await eventually(rename, () => heardByNew.length > 0)).toBe(true);
      expect(heardByOld).toEqual([]);
    } finally {
      newSocket.close();
    }
  } finally {
    oldSocket.close();
  }
});
