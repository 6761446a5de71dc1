import { count } from './env-values';

/**
 * MailEnvShape lists the limits of `Core.SendEmail` (merged into ServerEnvSchema). Each mail leaves from
 * this server's address, so a caller (user or service role), an IP and the whole app each get a budget
 * per window; SMTP_URL and MAIL_FROM live with the accounts (auth-env.ts) that also send mail.
 */
export const MailEnvShape = {
  MAIL_RATE_LIMIT_PER_CALLER: count(20, 1_000_000),
  /** MAIL_RATE_LIMIT_PER_IP is what every caller from one IP may send together (many accounts, one sender). */
  MAIL_RATE_LIMIT_PER_IP: count(40, 1_000_000),
  /**
   * MAIL_RATE_LIMIT_PER_APP is what the app's users may send together; the service role (functions,
   * automations) has a budget of the same size of its own, so users can never spend the app's own mail.
   */
  MAIL_RATE_LIMIT_PER_APP: count(200, 10_000_000),
  MAIL_RATE_LIMIT_WINDOW_SECONDS: count(3600, 7 * 86_400),
};
