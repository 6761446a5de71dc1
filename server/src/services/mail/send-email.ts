// Core.SendEmail: mail from this server's address (MAIL_FROM) to a user of the app. As on the hosted
// platform, recipients must be the app's users, so the integration cannot relay mail to strangers: the
// user must be enabled and either verified (confirmed their address) or invited by an admin. Callers
// must be signed in (or the service role); each caller and the app have a budget per window.
import { InvalidInputError, TooManyRequestsError, UnauthorizedError, UpstreamError } from '../../lib/errors';
import type { Caller } from '../../rules/caller';
import type { RateLimiter } from '../limits/rate-limiter';
import type { UserRow } from '../../store/users-store';
import { htmlToText, looksLikeHtml } from '../../lib/html-text';
import type { Mailer } from './mailer';

/** EmailInput is a validated SendEmail body. */
export interface EmailInput {
  to: string;
  subject: string;
  body: string;
  from_name?: string | undefined;
}

export interface MailLimits {
  perCaller: number;
  perIp: number;
  perApp: number;
  windowSeconds: number;
}

export interface EmailSenderDeps {
  mailer: Mailer;
  users: { findByEmail(appId: string, email: string): Promise<UserRow | null> };
  limiter: RateLimiter;
  limits: MailLimits;
}

/** EmailSender is SendEmail: mail to a user of the app, within the callers' and the app's budgets. */
export interface EmailSender {
  /** send mails input for caller in appId; returns what the integration answers. */
  send(appId: string, caller: Caller, input: EmailInput, ip: string): Promise<{ status: 'sent' }>;
}

/** RECIPIENT_RULE is the rule a refused recipient is told. */
export const RECIPIENT_RULE =
  'SendEmail can only send to users of this app (an enabled user who verified their address or was invited)';

/** refuseLineBreaks throws when a header value (subject, sender name) holds CR or LF (header injection). */
export function refuseLineBreaks(field: string, value: string | undefined): void {
  if (value !== undefined && /[\r\n]/.test(value)) {
    throw new InvalidInputError(`${field} must not contain line breaks (CR or LF)`);
  }
}

/** isMailableUser says whether a user row may receive SendEmail mail. */
export function isMailableUser(user: Pick<UserRow, 'disabled' | 'is_verified' | 'approved'> | null): boolean {
  return user !== null && !user.disabled && (user.is_verified || user.approved);
}

/** createEmailSender builds SendEmail on the mailer, the users store and the shared limiter. */
export function createEmailSender(deps: EmailSenderDeps): EmailSender {
  const windowMs = deps.limits.windowSeconds * 1000;
  async function spend(key: string, limit: number, what: string): Promise<void> {
    const decision = await deps.limiter.hit(key, limit, windowMs);
    if (!decision.allowed) {
      throw new TooManyRequestsError(
        `Too many e-mails sent by ${what}: try again in ${decision.retryAfterSeconds} s`,
        decision.retryAfterSeconds,
      );
    }
  }

  return {
    /** send mails input for caller in appId; returns what the integration answers. */
    async send(appId: string, caller: Caller, input: EmailInput, ip: string): Promise<{ status: 'sent' }> {
      if (caller.kind === 'anonymous') {
        throw new UnauthorizedError('SendEmail needs a signed-in user: sign in first', 'auth_required');
      }
      refuseLineBreaks('subject', input.subject);
      refuseLineBreaks('from_name', input.from_name);
      // Budgets are spent before the recipient is looked up, so probing which addresses are users is bounded too.
      // The service role (the app's own backend) has an app budget of its own: its users' mail, however
      // much, never leaves the app unable to send its own.
      if (caller.kind === 'user') {
        await spend(`mail:caller:${appId}:user:${caller.user.id}`, deps.limits.perCaller, 'you');
        await spend(`mail:ip:${appId}:${ip}`, deps.limits.perIp, 'your network address');
        await spend(`mail:app:${appId}`, deps.limits.perApp, "this app's users");
      } else {
        await spend(`mail:app-service:${appId}`, deps.limits.perApp, "this app's backend");
      }
      const recipient = await deps.users.findByEmail(appId, input.to);
      if (recipient === null || !isMailableUser(recipient))
        throw new InvalidInputError(`${RECIPIENT_RULE}; ${input.to} is not one`);
      const html = looksLikeHtml(input.body) ? input.body : undefined;
      try {
        await deps.mailer.send({
          to: recipient.email,
          subject: input.subject,
          text: html ? htmlToText(html) : input.body,
          html,
          fromName: input.from_name?.trim() || undefined,
        });
      } catch {
        // The transport's error may name hosts or credentials' users: the caller learns only that it failed.
        throw new UpstreamError('The mail server did not accept the mail: try again later');
      }
      return { status: 'sent' };
    },
  };
}
