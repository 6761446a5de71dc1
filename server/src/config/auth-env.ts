import { z } from 'zod';
import { blankAsUndefined, count } from './env-values';

/** DURATION matches jose-style durations such as `30d`, `12h`, `90m` or `3600s`. */
const DURATION = /^\d+\s*(s|m|h|d|w)$/;

/** AuthEnvShape lists the environment variables of accounts, tokens, mail and sign-in rules. */
export const AuthEnvShape = {
  JWT_SECRET: z.preprocess(
    blankAsUndefined,
    z.string().min(32, 'must be at least 32 characters (use a long random value)').optional(),
  ),
  JWT_EXPIRES_IN: z.preprocess(
    blankAsUndefined,
    z.string().regex(DURATION, 'must be a duration such as 30d, 12h or 900s').default('30d'),
  ),
  SERVICE_TOKEN: z.preprocess(
    blankAsUndefined,
    z.string().min(32, 'must be at least 32 characters (use a long random value)').optional(),
  ),
  SMTP_URL: z.preprocess(
    blankAsUndefined,
    z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
  ),
  MAIL_FROM: z.preprocess(blankAsUndefined, z.string().min(3).default('no-reply@localhost')),
  OTP_TTL_SECONDS: count(600, 86_400),
  SIGN_IN_STATE_TTL_SECONDS: count(600, 600),
  AUTH_RATE_LIMIT_IP: count(30, 1_000_000),
  AUTH_RATE_LIMIT_ACCOUNT: count(10, 1_000_000),
  AUTH_RATE_LIMIT_WINDOW_SECONDS: count(60, 86_400),
  TURNSTILE_SECRET: z.preprocess(blankAsUndefined, z.string().optional()),
  TURNSTILE_VERIFY_URL: z.preprocess(
    blankAsUndefined,
    z
      .url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' })
      .default('https://challenges.cloudflare.com/turnstile/v0/siteverify'),
  ),
  APP_VISIBILITY: z.preprocess(
    blankAsUndefined,
    z.enum(['public_without_login', 'public_with_login', 'private_with_login']).optional(),
  ),
  APP_SELF_SIGNUP: z.preprocess(
    blankAsUndefined,
    z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
  ),
};
