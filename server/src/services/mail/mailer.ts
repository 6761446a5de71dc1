import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import type StreamTransport from 'nodemailer/lib/stream-transport';

/** MailMessage is one mail: plain text, optionally with an HTML alternative and a sender display name. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string | undefined;
  /** fromName is the display name shown with MAIL_FROM's address; it never changes the address. */
  fromName?: string | undefined;
}

/** Mailer sends mail; which transport it uses is decided once at start. */
export interface Mailer {
  /** describe says where mail goes, for the start-up log (never a credential). */
  describe(): string;
  send(message: MailMessage): Promise<void>;
}

/** MailLog is the part of a logger the mailer uses. */
export interface MailLog {
  info(details: object, message: string): void;
}

/** MailerConfig picks SMTP (smtpUrl) or the outbox folder. */
export interface MailerConfig {
  smtpUrl: string | undefined;
  from: string;
  outboxDir: string;
  log: MailLog;
}

/** senderOf is nodemailer's `from`: MAIL_FROM as configured, or its address under the message's display name. */
function senderOf(from: string, message: MailMessage): string | { name: string; address: string } {
  if (!message.fromName) return from;
  const address = /<([^<>]+)>\s*$/.exec(from)?.[1] ?? from;
  return { name: message.fromName, address: address.trim() };
}

function envelopeOf(from: string, message: MailMessage) {
  const { fromName: _fromName, html, ...rest } = message;
  return { ...rest, from: senderOf(from, message), ...(html ? { html } : {}) };
}

/** loadNodemailer imports nodemailer at the first mail, not at start (most starts send none). */
const loadNodemailer = async () => (await import('nodemailer')).default;

/**
 * createMailer returns an SMTP mailer when smtpUrl is set, else one that writes each mail as an `.eml`
 * file into outboxDir. Only the recipient and file path are logged, never the body.
 */
export function createMailer(config: MailerConfig): Mailer {
  const { smtpUrl } = config;
  if (smtpUrl) {
    let transport: Promise<Transporter<SMTPTransport.SentMessageInfo>> | undefined;
    const host = new URL(smtpUrl).host;
    return {
      describe: () => `SMTP at ${host}`,
      async send(message) {
        transport ??= loadNodemailer().then((nodemailer) => nodemailer.createTransport(smtpUrl));
        await (await transport).sendMail(envelopeOf(config.from, message));
        config.log.info({ to: message.to, subject: message.subject }, 'mail sent');
      },
    };
  }
  let outbox: Promise<Transporter<StreamTransport.SentMessageInfo>> | undefined;
  return {
    describe: () => `outbox folder ${config.outboxDir} (set SMTP_URL to send real mail)`,
    async send(message) {
      outbox ??= loadNodemailer().then((nodemailer) =>
        nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
      );
      const info = await (await outbox).sendMail(envelopeOf(config.from, message));
      await mkdir(config.outboxDir, { recursive: true, mode: 0o700 });
      const name = `${Date.now()}-${randomBytes(4).toString('hex')}.eml`;
      const path = join(config.outboxDir, name);
      await writeFile(path, info.message, { mode: 0o600 });
      config.log.info({ to: message.to, subject: message.subject }, `mail written to ${path}`);
    },
  };
}
