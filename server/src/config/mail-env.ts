import { count } from './env-values';

/**
 * MailEnvShape lists the limits of `Core.SendEmail` (merged into ServerEnvSchema). Each mail leaves from
 * this server's address, so a caller (user or service role) and the whole app each get a budget per
 * window; SMTP_URL and MAIL_FROM live with the accounts (auth-env.ts) that also send mail.
 */
export const MailEnvShape = {
  MAIL_RATE_LIMIT_PER_CALLER: count(20, 1_000_000),
  MAIL_RATE_LIMIT_PER_APP: count(200, 10_000_000),
  MAIL_RATE_LIMIT_WINDOW_SECONDS: count(3600, 7 * 86_400),
};
