import { execFile } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '../../support/test';
import { SignJWT } from 'jose';
import { PASSWORD, api, failure, signUp, uniqueEmail, userClient } from '../../support/auth-helpers';
import { linkFrom, mailsTo, otpFrom, waitForMail } from '../../support/outbox';
import { dumpDatabaseText } from '../../support/postgres';
import { REPO_ROOT, removeServerData, startServer, type RunningServer } from '../../support/server-process';

// What base44 dev gets wrong, checked here: forgeable tokens, plaintext passwords, no attempt limits (open
// redirects are covered in auth-access). This server runs with generated secrets (no secret in the env).
const appId = 'queen-solana';
const run = promisify(execFile);
let server: RunningServer;
let secrets: { jwtSecret: string; serviceToken: string };
const plaintexts: string[] = [];

test.beforeAll(async () => {
  server = await startServer({
    env: { AUTH_RATE_LIMIT_IP: '100000', AUTH_RATE_LIMIT_ACCOUNT: '5', OTP_TTL_SECONDS: '2' },
    keepData: true,
  });
  secrets = JSON.parse(await readFile(join(server.dataDir, 'secrets.json'), 'utf8'));
});

test.afterAll(async () => {
  await server.stop();
  await removeServerData(server);
});

const sign = (secret: string, claims: Record<string, unknown>, exp: number | string = '1h') =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime(exp)
    .sign(new TextEncoder().encode(secret));

test('secrets are generated into DATA_DIR/secrets.json with mode 0600', async () => {
  expect((await stat(join(server.dataDir, 'secrets.json'))).mode & 0o777).toBe(0o600);
  expect(secrets.jwtSecret.length).toBeGreaterThanOrEqual(32);
  expect(secrets.serviceToken.length).toBeGreaterThanOrEqual(32);
});

test('forged, unsigned, expired and other-app tokens are 401 on User/me', async () => {
  const { token, user } = await signUp(server, uniqueEmail('victim'));
  plaintexts.push(token);
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const forged = {
    'another secret': await sign('x'.repeat(43), { sub: user.id, app_id: appId }),
    'alg none': `${part({ alg: 'none', typ: 'JWT' })}.${part({ sub: user.id, app_id: appId, exp: now + 3600 })}.`,
    expired: await sign(secrets.jwtSecret, { sub: user.id, app_id: appId }, now - 60),
    'another app': await sign(secrets.jwtSecret, { sub: user.id, app_id: 'other-app' }),
    'no such user': await sign(secrets.jwtSecret, { sub: 'ghost', app_id: appId }),
    garbage: 'invalid-token',
  };
  for (const [label, forgedToken] of Object.entries(forged)) {
    const error = await failure(userClient(server, forgedToken).auth.me());
    expect(error.status, label).toBe(401);
    expect(typeof (error.data as { message: unknown }).message, label).toBe('string');
  }
  expect(await userClient(server, token).auth.me()).toMatchObject({ id: user.id });
});

test('public routes ignore a bad token instead of failing', async () => {
  expect(await userClient(server, 'invalid-token').app.getPublicSettings()).toMatchObject({ id: appId });
});

test('brute-forcing a login is answered 429 with Retry-After', async () => {
  const email = uniqueEmail('brute');
  await signUp(server, email);
  const statuses: number[] = [];
  let retryAfter: string | null = null;
  for (let attempt = 0; attempt < 8; attempt++) {
    const result = await api(server, `/api/apps/${appId}/auth/login`, {
      body: { email, password: `guess-${attempt}` },
    });
    statuses.push(result.status);
    if (result.status === 429) retryAfter = result.headers.get('retry-after');
  }
  expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
  expect(statuses.slice(5)).toEqual([429, 429, 429]);
  expect(Number(retryAfter)).toBeGreaterThan(0);
  // Even the right password waits out the window.
  expect((await failure(userClient(server).auth.loginViaEmailPassword(email, PASSWORD))).status).toBe(429);
});

test("trading a token for a sign-in session is throttled as a login is (the account's 5 per window)", async () => {
  const { token } = await signUp(server, uniqueEmail('session-trade'));
  const statuses: number[] = [];
  for (let attempt = 0; attempt < 7; attempt++) {
    const result = await api(server, `/api/apps/${appId}/auth/sessions`, { token });
    statuses.push(result.status);
  }
  expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
});

test('a verification code expires (OTP_TTL_SECONDS)', async () => {
  const email = uniqueEmail('late');
  await userClient(server).auth.register({ email, password: PASSWORD });
  const code = otpFrom(await waitForMail(server.dataDir, email));
  await new Promise((wait) => setTimeout(wait, 2500));
  expect((await failure(userClient(server).auth.verifyOtp({ email, otpCode: code }))).status).toBe(400);
});

test('a user cannot change another user\u2019s role through updateMe or the admin API', async () => {
  const { token } = await signUp(server, uniqueEmail('climber'));
  expect((await failure(userClient(server, token).auth.updateMe({ role: 'admin' }))).status).toBe(400);
  const viaAdmin = await api(server, `/api/apps/${appId}/admin/users`, {
    method: 'PATCH',
    token,
    body: { email: 'anyone@example.test', role: 'admin' },
  });
  expect(viaAdmin.status).toBe(403);
  expect((await userClient(server, token).auth.me()) as { role: string }).toMatchObject({ role: 'user' });
});

test('the CLI goes through the running server, and its user can log in', async () => {
  const email = uniqueEmail('cli');
  const password = 'cli made this password';
  plaintexts.push(password);
  const { stdout } = await run(
    process.execPath,
    ['server/dist/cli.js', 'create-user', '--email', email, '--password', password, '--role', 'admin'],
    { cwd: REPO_ROOT, env: { ...process.env, DATA_DIR: server.dataDir } },
  );
  expect(JSON.parse(stdout)).toMatchObject({
    ok: true,
    via: `server at ${server.url}`,
    result: { email, role: 'admin' },
  });
  const login = await userClient(server).auth.loginViaEmailPassword(email, password);
  expect(login.user).toMatchObject({ role: 'admin' });
  const printed = await run(process.execPath, ['server/dist/cli.js', 'service-token'], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATA_DIR: server.dataDir },
  });
  expect(printed.stdout.trim()).toBe(secrets.serviceToken);
});

test('no password, code, token or secret reaches the logs, and the database holds no plaintext', async () => {
  const email = uniqueEmail('scan');
  const password = 'scan me if you can';
  plaintexts.push(password);
  const { token } = await signUp(server, email, password);
  const [otpMail] = await mailsTo(server.dataDir, email);
  if (otpMail) plaintexts.push(otpFrom(otpMail));
  plaintexts.push(token);
  const seen = (await mailsTo(server.dataDir, email)).length;
  await userClient(server).auth.resetPasswordRequest(email);
  const resetToken = linkFrom(await waitForMail(server.dataDir, email, seen), 'reset_token').token;
  plaintexts.push(resetToken);

  const logs = server.logs();
  for (const secret of [...plaintexts, secrets.jwtSecret, secrets.serviceToken]) {
    expect(logs.includes(secret), `log leak of ${secret.slice(0, 6)}…`).toBe(false);
  }
  expect(logs).toContain('mail written to');

  expect(await server.stop()).toBe(0);
  // Whichever store the server used: its PGlite folder or its PostgreSQL database.
  const dump = await dumpDatabaseText(server);
  expect(dump).toContain(email);
  expect(dump).toContain('$argon2id$');
  for (const secret of [password, 'cli made this password', resetToken, PASSWORD]) {
    expect(dump.includes(secret), `plaintext in database: ${secret.slice(0, 6)}…`).toBe(false);
  }
});
