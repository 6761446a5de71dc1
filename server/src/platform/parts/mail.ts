// `Core.SendEmail`: mail to the app's own users through the shared mailer, within per-caller, per-IP and
// per-app budgets.
import { mailHandlers } from '../../routes/core-handlers';
import { createEmailSender, type EmailSender } from '../../services/mail/send-email';
import { createUsersStore } from '../../store/users-store';
import type { Part, Shared } from './part';

/** MailPart is the mail sender. */
export interface MailPart extends Part {
  mail: EmailSender;
}

/** buildMailPart builds SendEmail on the shared mailer and limiter. */
export function buildMailPart(shared: Shared): MailPart {
  const { config } = shared;
  const mail = createEmailSender({
    mailer: shared.mailer,
    users: createUsersStore(shared.db),
    limiter: shared.limiter,
    limits: {
      perCaller: config.MAIL_RATE_LIMIT_PER_CALLER,
      perIp: config.MAIL_RATE_LIMIT_PER_IP,
      perApp: config.MAIL_RATE_LIMIT_PER_APP,
      windowSeconds: config.MAIL_RATE_LIMIT_WINDOW_SECONDS,
    },
  });
  return { name: 'mail', mail, coreHandlers: mailHandlers(mail) };
}
