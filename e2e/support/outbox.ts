import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Mail is one message read back from the server's outbox folder. */
export interface Mail {
  file: string;
  to: string;
  subject: string;
  text: string;
}

function decodeQuotedPrintable(body: string): string {
  return body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

function parseEml(file: string, source: string): Mail {
  const split = source.indexOf('\n\n');
  const head = source.slice(0, split);
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
  const raw = source.slice(split + 2);
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  let text = raw;
  if (encoding === 'quoted-printable') text = decodeQuotedPrintable(raw);
  if (encoding === 'base64') text = Buffer.from(raw.replace(/\s+/g, ''), 'base64').toString('utf8');
  return { file, to: header('To'), subject: header('Subject'), text };
}

/** mailsTo returns every outbox mail addressed to `to` (case-insensitive), oldest first. */
export async function mailsTo(dataDir: string, to: string): Promise<Mail[]> {
  const folder = join(dataDir, 'outbox');
  const names = await readdir(folder).catch(() => [] as string[]);
  const mails: Mail[] = [];
  for (const name of names.filter((n) => n.endsWith('.eml')).sort()) {
    const mail = parseEml(name, await readFile(join(folder, name), 'utf8'));
    if (mail.to.toLowerCase().includes(to.toLowerCase())) mails.push(mail);
  }
  return mails;
}

/** waitForMail polls until `to` has more than `seen` mails and returns the newest. */
export async function waitForMail(dataDir: string, to: string, seen = 0, timeoutMs = 10_000): Promise<Mail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = await mailsTo(dataDir, to);
    const newest = mails.at(-1);
    if (mails.length > seen && newest) return newest;
    if (Date.now() > deadline) throw new Error(`no new mail to ${to} within ${timeoutMs} ms`);
    await new Promise((wait) => setTimeout(wait, 50));
  }
}

/** otpFrom returns the 6-digit code of a verification mail. */
export function otpFrom(mail: Mail): string {
  const code = /code is (\d{6})/.exec(mail.text)?.[1];
  if (!code) throw new Error(`no code in mail ${mail.file}`);
  return code;
}

/**
 * linkFrom returns the link carrying `param` and the token itself: `reset_token` or `invite_token` on our
 * sign-in page, `token` on a hosted app's own `/reset-password` page.
 */
export function linkFrom(
  mail: Mail,
  param: 'reset_token' | 'invite_token' | 'token',
): { url: string; token: string } {
  const url = new RegExp(`https?://\\S+\\?${param}=\\S+`).exec(mail.text)?.[0];
  if (!url) throw new Error(`no ${param} link in mail ${mail.file}`);
  return { url, token: new URL(url).searchParams.get(param) ?? '' };
}
