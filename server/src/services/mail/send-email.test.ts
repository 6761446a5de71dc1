import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { UserRow } from '../../store/users-store';
import { createRateLimiter } from '../limits/rate-limiter';
import { htmlToText, looksLikeHtml } from '../../lib/html-text';
import { createMailer, type MailMessage } from './mailer';
import { createEmailSender, isMailableUser, RECIPIENT_RULE, refuseLineBreaks } from './send-email';
import type { Caller } from '../../rules/caller';

const user = (email: string, changes: Partial<UserRow> = {}): UserRow => ({
  id: `id-${email}`,
  app_id: 'app',
  email,
  full_name: email,
  role: 'user',
  is_verified: true,
  disabled: false,
  approved: true,
  password_hash: null,
  custom: {},
  token_version: 1,
  created_date: new Date(0),
  updated_date: new Date(0),
  ...changes,
});

const USERS = [
  user('ada@example.com'),
  user('pending@example.com', { is_verified: false, approved: false }),
  user('invited@example.com', { is_verified: false, approved: true }),
  user('gone@example.com', { disabled: true }),
];

const signedIn: Caller = {
  kind: 'user',
  user: { id: 'u1', email: 'ada@example.com', role: 'user', full_name: 'Ada', custom: {} },
};

const IP = '192.0.2.1';

function senderWith(limits = { perCaller: 10, perIp: 50, perApp: 100, windowSeconds: 60 }) {
  const sent: MailMessage[] = [];
  const sender = createEmailSender({
    mailer: { describe: () => 'memory', send: async (message) => void sent.push(message) },
    users: {
      findByEmail: async (_app, email) => USERS.find((row) => row.email === email.toLowerCase()) ?? null,
    },
    limiter: createRateLimiter(),
    limits,
  });
  return { sender, sent };
}

describe('SendEmail rules', () => {
  it('sends to users of the app only: verified or invited, never disabled or unconfirmed sign-ups', async () => {
    const { sender, sent } = senderWith();
    const mail = { subject: 'Hi', body: 'Hello' };
    expect(await sender.send('app', signedIn, { to: 'Ada@Example.com', ...mail }, IP)).toEqual({
      status: 'sent',
    });
    await sender.send('app', { kind: 'service' }, { to: 'invited@example.com', ...mail }, IP);
    expect(sent.map((message) => message.to)).toEqual(['ada@example.com', 'invited@example.com']);
    for (const to of ['stranger@example.com', 'pending@example.com', 'gone@example.com']) {
      await expect(sender.send('app', signedIn, { to, ...mail }, IP)).rejects.toThrow(RECIPIENT_RULE);
    }
    expect(isMailableUser(null)).toBe(false);
  });

  it('refuses anonymous callers', async () => {
    const { sender } = senderWith();
    await expect(
      sender.send('app', { kind: 'anonymous' }, { to: 'ada@example.com', subject: 'x', body: 'y' }, IP),
    ).rejects.toMatchObject({ name: 'UnauthorizedError' });
  });

  it('refuses CR or LF in the subject and the sender name', async () => {
    expect(() => refuseLineBreaks('subject', 'ok')).not.toThrow();
    const { sender, sent } = senderWith();
    await expect(
      sender.send(
        'app',
        signedIn,
        { to: 'ada@example.com', subject: 'Hi\r\nBcc: x@evil.test', body: 'b' },
        IP,
      ),
    ).rejects.toThrow('subject must not contain line breaks');
    await expect(
      sender.send(
        'app',
        signedIn,
        { to: 'ada@example.com', subject: 'Hi', body: 'b', from_name: 'A\nB' },
        IP,
      ),
    ).rejects.toThrow('from_name must not contain line breaks');
    expect(sent).toHaveLength(0);
  });

  it('sends HTML bodies with a plain-text alternative and the display name', async () => {
    const { sender, sent } = senderWith();
    await sender.send(
      'app',
      signedIn,
      {
        to: 'ada@example.com',
        subject: 'Hi',
        body: '<p>Hello <b>Ada</b></p><p><a href="https://x.test/a">Open</a></p>',
        from_name: 'Camp Team',
      },
      IP,
    );
    expect(sent[0]).toMatchObject({
      html: expect.stringContaining('<b>Ada</b>'),
      text: 'Hello Ada\n\nOpen (https://x.test/a)',
      fromName: 'Camp Team',
    });
  });

  it('answers an upstream error (502) when the mail server fails, without its details', async () => {
    const sender = createEmailSender({
      mailer: {
        describe: () => 'broken',
        send: async () => {
          throw new Error('connect ECONNREFUSED smtp.internal:25 as user secret-user');
        },
      },
      users: { findByEmail: async () => user('ada@example.com') },
      limiter: createRateLimiter(),
      limits: { perCaller: 10, perIp: 10, perApp: 10, windowSeconds: 60 },
    });
    await expect(
      sender.send('app', signedIn, { to: 'ada@example.com', subject: 's', body: 'b' }, IP),
    ).rejects.toMatchObject({
      name: 'UpstreamError',
      message: 'The mail server did not accept the mail: try again later',
    });
  });

  it("limits each caller, each IP and the app's users per window; the service role has its own budget", async () => {
    const { sender } = senderWith({ perCaller: 2, perIp: 3, perApp: 4, windowSeconds: 60 });
    const mail = { to: 'ada@example.com', subject: 'Hi', body: 'b' };
    const other = { ...signedIn, user: { ...signedIn.user, id: 'u2' } };
    const third = { ...signedIn, user: { ...signedIn.user, id: 'u3' } };
    await sender.send('app', signedIn, mail, IP);
    await sender.send('app', signedIn, mail, IP);
    await expect(sender.send('app', signedIn, mail, IP)).rejects.toThrow('by you');
    // Another account on the same IP: the IP's budget (3) runs out before its own.
    await sender.send('app', other, mail, IP);
    await expect(sender.send('app', other, mail, IP)).rejects.toThrow('your network address');
    // Elsewhere, the app's users share 4 in all.
    await sender.send('app', third, mail, '192.0.2.9');
    await expect(sender.send('app', third, mail, '192.0.2.9')).rejects.toThrow("this app's users");
    // The users spent theirs; the app's backend still sends, up to its own budget.
    for (let i = 0; i < 4; i++) await sender.send('app', { kind: 'service' }, mail, IP);
    await expect(sender.send('app', { kind: 'service' }, mail, IP)).rejects.toThrow("this app's backend");
  });
});

describe('html-text', () => {
  it('tells HTML from text that merely holds a < sign', () => {
    expect(looksLikeHtml('a <b>bold</b> move')).toBe(true);
    expect(looksLikeHtml('1 < 2 and 3 > 2')).toBe(false);
    expect(htmlToText('<ul><li>one</li><li>two &amp; three</li></ul><script>x()</script>')).toBe(
      '- one\n- two & three',
    );
  });
});

describe('mailer', () => {
  let folder = '';
  afterEach(async () => rm(folder, { recursive: true, force: true }));

  it('writes the display name with MAIL_FROM’s address and an HTML alternative into the outbox', async () => {
    folder = await mkdtemp(join(tmpdir(), 'mailer-test-'));
    const mailer = createMailer({
      smtpUrl: undefined,
      from: 'Queen <no-reply@queen.test>',
      outboxDir: folder,
      log: { info: () => undefined },
    });
    await mailer.send({
      to: 'ada@example.com',
      subject: 'Hi',
      text: 'Hello',
      html: '<p>Hello</p>',
      fromName: 'Camp Team',
    });
    const [file] = await readdir(folder);
    const eml = await readFile(join(folder, file ?? ''), 'utf8');
    expect(eml).toMatch(/^From: Camp Team <no-reply@queen\.test>$/m);
    expect(eml).toContain('Content-Type: multipart/alternative');
    expect(eml).toContain('<p>Hello</p>');
  });
});
