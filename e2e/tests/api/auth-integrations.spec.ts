import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '../../support/test';
import { AUTH_ENV, PASSWORD, failure, uniqueEmail, userClient } from '../../support/auth-helpers';
import {
  startSmtpDouble,
  startTurnstileDouble,
  type SmtpDouble,
  type TurnstileDouble,
} from '../../support/mail-and-captcha-doubles';
import { REPO_ROOT, startServer, type RunningServer } from '../../support/server-process';

// The two outside services auth can use, each replaced by a local double: SMTP (SMTP_URL) and a
// Turnstile verifier (TURNSTILE_SECRET + TURNSTILE_VERIFY_URL).

const run = promisify(execFile);
let smtp: SmtpDouble;
let turnstile: TurnstileDouble;
let server: RunningServer;

test.beforeAll(async () => {
  [smtp, turnstile] = await Promise.all([startSmtpDouble(), startTurnstileDouble()]);
  server = await startServer({
    env: {
      ...AUTH_ENV,
      SMTP_URL: smtp.url,
      TURNSTILE_SECRET: 'turnstile-secret-for-tests',
      TURNSTILE_VERIFY_URL: turnstile.url,
    },
  });
});

test.afterAll(async () => {
  await server.stop();
  await Promise.all([smtp.close(), turnstile.close()]);
});

test('with SMTP_URL, the sign-up code is sent over SMTP and nothing lands in the outbox', async () => {
  const email = uniqueEmail('smtp');
  await userClient(server).auth.register({ email, password: PASSWORD, turnstile_token: 'good-token' });
  await expect
    .poll(() => smtp.messages.filter((message) => message.to.join().includes(email)).length)
    .toBe(1);
  const message = smtp.messages.find((candidate) => candidate.to.join().includes(email));
  expect(message?.data).toMatch(/\b\d{6}\b/);
  const outbox = await readdir(join(server.dataDir, 'outbox')).catch(() => []);
  expect(outbox).toEqual([]);
  expect(server.logs()).not.toContain(message?.data.match(/\b\d{6}\b/)?.[0] ?? 'no-code');
});

test('with a verifier configured, login and register need a Turnstile token it accepts', async () => {
  const email = uniqueEmail('captcha');
  await run(
    process.execPath,
    ['server/dist/cli.js', 'create-user', '--email', email, '--password', PASSWORD],
    {
      cwd: REPO_ROOT,
      // The server runs with SERVICE_TOKEN from the environment, so the CLI needs the same one.
      env: { ...process.env, DATA_DIR: server.dataDir, SERVICE_TOKEN: AUTH_ENV.SERVICE_TOKEN ?? '' },
    },
  );
  const auth = userClient(server).auth;
  const missing = await failure(auth.loginViaEmailPassword(email, PASSWORD));
  expect(missing.status).toBe(400);
  expect(missing.message).toContain('turnstile_token');
  expect((await failure(auth.loginViaEmailPassword(email, PASSWORD, 'bad-token'))).status).toBe(400);
  const login = await auth.loginViaEmailPassword(email, PASSWORD, 'good-token');
  expect(login.access_token).toEqual(expect.any(String));
  const checked = turnstile.requests.at(-1);
  expect(checked?.get('secret')).toBe('turnstile-secret-for-tests');
  expect(checked?.get('response')).toBe('good-token');
  expect((await failure(auth.register({ email: uniqueEmail('bot'), password: PASSWORD }))).status).toBe(400);
});
