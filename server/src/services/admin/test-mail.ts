// The console's "Send a test mail": one short message to the signed-in admin through the server's mailer, so
// an operator sees SMTP (or the outbox) work. Rate-limited per admin; audited without the message's content.
import { InvalidInputError, TooManyRequestsError } from '../../lib/errors';
import type { AuditActor, AuditLog } from '../audit/audit-log';
import type { RateLimiter } from '../limits/rate-limiter';
import type { Mailer } from '../mail/mailer';

/** TEST_MAIL_LIMIT is how many test mails one admin may send per TEST_MAIL_WINDOW_MS. */
export const TEST_MAIL_LIMIT = 5;
export const TEST_MAIL_WINDOW_MS = 15 * 60_000;

export interface TestMailDeps {
  mailer: Pick<Mailer, 'send' | 'describe'>;
  limiter: RateLimiter;
  audit: Pick<AuditLog, 'record'>;
  appName: string;
}

/** createTestMail returns the sender of test mails to the calling admin. */
export function createTestMail(deps: TestMailDeps) {
  return {
    /** send mails actor (an admin: the service role has no address) and answers where it went. */
    async send(appId: string, actor: AuditActor): Promise<{ to: string; via: string }> {
      const to = actor.kind === 'admin' ? actor.email : undefined;
      if (!to) throw new InvalidInputError('A test mail goes to the signed-in admin: sign in as one');
      const hit = await deps.limiter.hit(
        `admin:test-mail:${appId}:${to}`,
        TEST_MAIL_LIMIT,
        TEST_MAIL_WINDOW_MS,
      );
      if (!hit.allowed) {
        throw new TooManyRequestsError(
          `Too many test mails: try again in ${hit.retryAfterSeconds} s`,
          hit.retryAfterSeconds,
        );
      }
      await deps.mailer.send({
        to,
        subject: `Test mail from ${deps.appName}`,
        text: `This is a test mail from the ${deps.appName} console. If you read it, mail works.`,
      });
      await deps.audit.record(appId, actor, { action: 'mail.test', target: `user:${to}` });
      return { to, via: deps.mailer.describe() };
    },
  };
}

export type TestMail = ReturnType<typeof createTestMail>;
