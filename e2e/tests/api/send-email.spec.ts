import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Base44Error } from '@base44/sdk';
import { expect, test } from '../../support/test';
import {
  AUTH_ENV,
  api,
  createUser,
  failure,
  serviceClient,
  uniqueEmail,
  userClient,
} from '../../support/auth-helpers';
import { startSmtpDouble, type SmtpDouble } from '../../support/mail-and-captcha-doubles';
import { waitForMail } from '../../support/outbox';
import { DEFAULT_APP_ID } from '../../support/sdk-client';
import { freePort, startServer, type RunningServer } from '../../support/server-process';

// Core.SendEmail through the official SDK against a real server: the outbox and the SMTP double, the
// recipient rule (users of the app only), header injection, budgets; and installable packages (404).
type Core = {
  SendEmail(input: { to: string; subject: string; body: string; from_name?: string }): Promise<unknown>;
};
const coreOf = (client: { integrations: object }) => (client.integrations as { Core: unknown }).Core as Core;
const SEND_EMAIL = `/api/apps/${DEFAULT_APP_ID}/integration-endpoints/Core/SendEmail`;

async function rawOutboxMailTo(dataDir: string, to: string): Promise<string> {
  await waitForMail(dataDir, to);
  const folder = join(dataDir, 'outbox');
  for (const name of (await readdir(folder)).sort().reverse()) {
    const source = await readFile(join(folder, name), 'utf8');
    if (source.includes(`To: ${to}`)) return source;
  }
  throw new Error(`no mail to ${to}`);
}

test.describe('SendEmail into the outbox', () => {
  let server: RunningServer;
  let sender: { token: string };
  let recipient: string;

  test.beforeAll(async () => {
    server = await startServer({
      env: { ...AUTH_ENV, MAIL_FROM: 'Queen <no-reply@queen.test>', MAIL_RATE_LIMIT_PER_CALLER: '5' },
    });
    sender = await createUser(server, { email: uniqueEmail('sender') });
    recipient = uniqueEmail('recipient');
    await createUser(server, { email: recipient });
  });
  test.afterAll(async () => {
    expect(await server.stop()).toBe(0);
  });

  // The official SDK's e2e case "should be able to send an email via Core integration", with TEST_EMAIL a
  // registered user of the app.
  test('should be able to send an email via Core integration', async () => {
    const base44 = userClient(server, sender.token);
    const result = await (base44.integrations as unknown as { Core: Core }).Core.SendEmail({
      to: recipient,
      subject: 'Test Email from Base44 SDK Tests',
      body: 'This is a test email sent from the Base44 SDK E2E tests.',
    });
    expect(result).toBeTruthy();
    const mail = await waitForMail(server.dataDir, recipient);
    expect(mail.subject).toBe('Test Email from Base44 SDK Tests');
    expect(mail.text).toContain('This is a test email sent from the Base44 SDK E2E tests.');
  });

  test('an HTML body gets a text alternative; from_name is the display name of MAIL_FROM', async () => {
    const to = uniqueEmail('html');
    await createUser(server, { email: to });
    await coreOf(userClient(server, sender.token)).SendEmail({
      to,
      subject: 'Packing list',
      body: '<p>Bring a <b>tent</b></p>',
      from_name: 'Camp Team',
    });
    const source = await rawOutboxMailTo(server.dataDir, to);
    expect(source).toMatch(/^From: Camp Team <no-reply@queen\.test>$/m);
    expect(source).toContain('multipart/alternative');
    expect(source).toMatch(/Content-Type: text\/plain[\s\S]*Bring a tent/);
    expect(source).toContain('<b>tent</b>');
  });

  test('recipients must be users of the app; the service role may send to any of them', async () => {
    const stranger = await failure(
      coreOf(userClient(server, sender.token)).SendEmail({
        to: 'stranger@example.test',
        subject: 's',
        body: 'b',
      }),
    );
    expect(stranger.status).toBe(400);
    expect(stranger.message).toContain('SendEmail can only send to users of this app');
    const result = await coreOf(serviceClient(server).asServiceRole).SendEmail({
      to: recipient,
      subject: 'From the backend',
      body: 'b',
    });
    expect(result).toEqual({ status: 'sent' });
  });

  test('anonymous callers, line breaks in headers and bad bodies are refused', async () => {
    const anonymous = await failure(
      coreOf(userClient(server)).SendEmail({ to: recipient, subject: 's', body: 'b' }),
    );
    expect(anonymous.status).toBe(401);
    const injected = await api(server, SEND_EMAIL, {
      token: sender.token,
      body: { to: recipient, subject: 'Hi\r\nBcc: victim@example.test', body: 'b' },
    });
    expect(injected.status).toBe(400);
    expect(injected.json.message).toBe('subject must not contain line breaks (CR or LF)');
    const name = await api(server, SEND_EMAIL, {
      token: sender.token,
      body: { to: recipient, subject: 'Hi', body: 'b', from_name: 'Evil\nReply-To: x@evil.test' },
    });
    expect(name.json.message).toBe('from_name must not contain line breaks (CR or LF)');
    const missing = await api(server, SEND_EMAIL, {
      token: sender.token,
      body: { to: 'not an address', body: 'b' },
    });
    expect(missing.status).toBe(400);
    expect(String(missing.json.message)).toMatch(/to: must be one e-mail address; subject: is required/);
  });

  test('each caller has a budget per window (MAIL_RATE_LIMIT_PER_CALLER) → 429 with Retry-After', async () => {
    const busy = await createUser(server, { email: uniqueEmail('busy') });
    const mail = { to: recipient, subject: 'Again', body: 'b' };
    for (let sent = 0; sent < 5; sent++) {
      expect((await api(server, SEND_EMAIL, { token: busy.token, body: mail })).status).toBe(200);
    }
    const over = await api(server, SEND_EMAIL, { token: busy.token, body: mail });
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(over.json.message).toMatch(/Too many e-mails sent by you/);
  });

  test('installable packages are not installed here: 404 naming the package (the SDK e2e case)', async () => {
    type Installable = { NonExistentPackage: { NonExistentEndpoint(data: object): Promise<unknown> } };
    const integrations = userClient(server).integrations as unknown as Installable;
    const error = await failure(integrations.NonExistentPackage.NonExistentEndpoint({}));
    expect(error).toBeInstanceOf(Base44Error);
    expect(error.status).toBe(404);
    expect(error.message).toBe('integration package NonExistentPackage is not installed on this server');
    const long = await api(
      server,
      `/api/apps/${DEFAULT_APP_ID}/integration-endpoints/installable/%3Cb%3E${'x'.repeat(80)}/integration-endpoints/Go`,
      { body: {} },
    );
    expect(long.status).toBe(404);
    expect(long.json.message).toBe(`integration package b${'x'.repeat(59)} is not installed on this server`);
  });
});

test.describe('SendEmail over SMTP', () => {
  let smtp: SmtpDouble;
  let server: RunningServer;

  test.beforeAll(async () => {
    smtp = await startSmtpDouble();
    server = await startServer({
      env: {
        ...AUTH_ENV,
        SMTP_URL: smtp.url,
        MAIL_FROM: 'no-reply@queen.test',
        MAIL_RATE_LIMIT_PER_APP: '3',
      },
    });
  });
  test.afterAll(async () => {
    expect(await server.stop()).toBe(0);
    await smtp.close();
  });

  test('the mail reaches the SMTP server from MAIL_FROM under the display name', async () => {
    const to = uniqueEmail('smtp');
    const { token } = await createUser(server, { email: to });
    await coreOf(userClient(server, token)).SendEmail({
      to,
      subject: 'Over SMTP',
      body: 'Hello',
      from_name: 'Camp Team',
    });
    await expect
      .poll(() => smtp.messages.filter((message) => message.data.includes('Subject: Over SMTP')).length)
      .toBe(1);
    const message = smtp.messages.find((entry) => entry.data.includes('Subject: Over SMTP'));
    expect(message?.from).toContain('<no-reply@queen.test>');
    expect(message?.to.join()).toContain(to);
    expect(message?.data).toMatch(/^From: Camp Team <no-reply@queen\.test>\r?$/m);
  });

  test('the whole app has a budget per window too (MAIL_RATE_LIMIT_PER_APP), across callers', async () => {
    // The test above spent one mail of the app's three.
    const to = uniqueEmail('app-budget');
    const first = await createUser(server, { email: to });
    const second = await createUser(server, { email: uniqueEmail('app-budget') });
    const mail = { to, subject: 'Budget', body: 'b' };
    expect((await api(server, SEND_EMAIL, { token: first.token, body: mail })).status).toBe(200);
    expect((await api(server, SEND_EMAIL, { token: second.token, body: mail })).status).toBe(200);
    const over = await api(server, SEND_EMAIL, { token: first.token, body: mail });
    expect(over.status).toBe(429);
    expect(over.json.message).toMatch(/Too many e-mails sent by this app/);
  });
});

test('a mail server that refuses the connection is a 502 without its details', async () => {
  const closedPort = await freePort();
  const server = await startServer({ env: { ...AUTH_ENV, SMTP_URL: `smtp://127.0.0.1:${closedPort}` } });
  try {
    const to = uniqueEmail('down');
    const { token } = await createUser(server, { email: to });
    const answer = await api(server, SEND_EMAIL, { token, body: { to, subject: 'Down', body: 'b' } });
    expect(answer.status).toBe(502);
    expect(answer.json.message).toBe('The mail server did not accept the mail: try again later');
  } finally {
    expect(await server.stop()).toBe(0);
  }
});
