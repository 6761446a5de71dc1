import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { InvalidInputError } from '../../lib/errors';
import type { VerifyOtpSchema } from '../../schemas/auth';
import type { UserRow } from '../../store/users-store';
import { toPublicUser, type PublicUser } from '../users/public-user';
import {
  defaultFullName,
  type AccountDeps,
  type AnnounceUser,
  type AuthNotice,
  type RequestOrigin,
  type SignedIn,
} from './account-deps';
import { checkOtp, newOtp, OTP_MAX_FAILED_ATTEMPTS } from './otp-rules';

/** RegisterInput is a validated sign-up request. */
export interface RegisterInput {
  email: string;
  password: string;
  turnstile_token?: string | undefined;
}

/** VerifyOtpInput is a validated `auth/verify-otp` body. */
export type VerifyOtpInput = z.infer<typeof VerifyOtpSchema>;

/** OtpSent is register's answer: a code is on its way (whether or not the email had an account). */
export interface OtpSent extends AuthNotice {
  otp_expires_in_minutes: number;
}

/** SignUpService is registration and email verification by one-time code. */
export interface SignUpService {
  /** register creates an unverified account and mails a code bound to the password. */
  register(appId: string, input: RegisterInput, from: RequestOrigin): Promise<OtpSent>;
  /** verifyOtp checks the code; on success the user is verified with the password the code was mailed for. */
  verifyOtp(appId: string, input: VerifyOtpInput, from: RequestOrigin): Promise<SignedIn & { success: true }>;
  /** resendOtp mails a new code to an unverified account; the answer never says whether one exists. */
  resendOtp(appId: string, email: string, from: RequestOrigin): Promise<AuthNotice>;
}

const CONFLICTING_SIGN_UP_NOTICE =
  'This email was used for two sign-ups with different passwords before it was verified. To protect the account, ' +
  'every verification code mailed so far is cancelled. To finish signing up, choose your password with ' +
  '"Forgot password" on the sign-in page: the link it mails you proves this mailbox is yours.\n';

const BAD_CODE = 'The verification code is invalid or has expired: request a new one';

/**
 * createSignUpService returns registration and email verification by one-time code; announce hears of
 * each new account and each verification.
 */
export function createSignUpService(
  deps: AccountDeps,
  announce: AnnounceUser = () => undefined,
): SignUpService {
  /** storeCode saves a fresh code for userId bound to passwordHash (null: the earlier code's) and returns it. */
  async function storeCode(userId: string, passwordHash: string | null): Promise<string> {
    const otp = newOtp(userId, deps.otpTtlSeconds);
    await deps.codes.replaceOtp(userId, otp.hash, otp.expiresAt, passwordHash);
    return otp.code;
  }

  function codeMail(appId: string, email: string, code: string) {
    const minutes = Math.round(deps.otpTtlSeconds / 60);
    return deps.mailer.send({
      to: email,
      subject: `Your ${appId} verification code`,
      text: `Your verification code is ${code}\n\nIt expires in ${minutes} minutes. If you did not sign up, ignore this mail.\n`,
    });
  }

  /**
   * afterAnswer runs code and mail work once the response is on its way, so its duration tells the caller
   * nothing; only the user row itself is written before answering (a 2xx means the account is stored).
   */
  function afterAnswer(what: string, work: () => Promise<unknown>): void {
    void Promise.resolve()
      .then(work)
      .catch((error: unknown) => deps.log.warn({ err: error }, `${what} failed`));
  }

  /**
   * registerPending answers a sign-up for an email whose account is not verified yet. The same password
   * again re-mails a code for it. Another password means two people claim the address and neither has
   * proven the mailbox: every code is voided and the pending password forgotten, so no code can activate
   * either password (one mailed to the owner by an attacker's sign-up included); only a reset link, which
   * proves the mailbox, sets the password then.
   */
  function registerPending(appId: string, user: UserRow, password: string): void {
    afterAnswer('sign-up mail', async () => {
      const pending = await deps.codes.findOtp(user.id);
      const bound = pending?.password_hash ?? user.password_hash;
      if (bound && (await deps.hasher.verify(bound, password))) {
        await codeMail(appId, user.email, await storeCode(user.id, bound));
        return;
      }
      await deps.codes.deleteOtp(user.id);
      await deps.users.clearPendingPassword(appId, user.id);
      await deps.mailer.send({
        to: user.email,
        subject: `Sign-up attempt on ${appId}`,
        text: CONFLICTING_SIGN_UP_NOTICE,
      });
    });
  }

  const accepted = () => ({
    success: true,
    message: 'Check your email for a verification code',
    otp_expires_in_minutes: Math.round(deps.otpTtlSeconds / 60),
  });

  return {
    /**
     * register creates an unverified account and mails a code bound to the password. The answer is the
     * same whether or not the email already has an account, and every path hashes the password inline
     * and mails after answering, so the time taken does not tell either.
     */
    async register(appId: string, input: RegisterInput, from: RequestOrigin) {
      await deps.throttle('register', from.ip, input.email);
      await deps.turnstile(input.turnstile_token, from.ip);
      await deps.apps.requireApp(appId);
      const passwordHash = await deps.hasher.hash(input.password);
      const existing = await deps.users.findByEmail(appId, input.email);
      if (existing?.is_verified) {
        afterAnswer('sign-up notice', () =>
          deps.mailer.send({
            to: existing.email,
            subject: `Sign-up attempt on ${appId}`,
            text: 'Someone tried to sign up with this email, which already has an account. Sign in, or reset your password if you forgot it.\n',
          }),
        );
        return accepted();
      }
      if (existing) {
        registerPending(appId, existing, input.password);
        return accepted();
      }
      // Committed before answering: a 2xx means the account exists (the crash tests rely on it).
      const user = await deps.users.insert({
        id: randomUUID(),
        appId,
        email: input.email,
        fullName: defaultFullName(input.email),
        role: deps.roles.defaultRole,
        isVerified: false,
        approved: false,
        passwordHash,
      });
      announce(user, 'create');
      afterAnswer('verification mail', async () =>
        codeMail(appId, user.email, await storeCode(user.id, passwordHash)),
      );
      return accepted();
    },

    /**
     * verifyOtp checks the code; on success the user is verified (and approved if self-sign-up is on) with
     * the password the code was mailed for.
     */
    async verifyOtp(
      appId: string,
      input: { email: string; otp_code: string },
      from: RequestOrigin,
    ): Promise<{ success: true; access_token: string; user: PublicUser }> {
      await deps.throttle('otp', from.ip, input.email);
      const user = await deps.users.findByEmail(appId, input.email);
      if (!user) throw new InvalidInputError(BAD_CODE);
      const pending = await deps.codes.findOtp(user.id);
      const outcome = checkOtp(pending, user.id, input.otp_code);
      if (outcome === 'wrong') {
        const failed = await deps.codes.countFailedOtp(user.id);
        if (failed >= OTP_MAX_FAILED_ATTEMPTS) await deps.codes.deleteOtp(user.id);
      }
      if (outcome === 'expired') await deps.codes.deleteOtp(user.id);
      const activated = pending?.password_hash ?? user.password_hash;
      if (outcome !== 'ok' || !pending || !activated) throw new InvalidInputError(BAD_CODE);
      await deps.codes.deleteOtp(user.id);
      const settings = await deps.apps.findAccessSettings(appId);
      const verified = await deps.users.update(appId, user.id, {
        isVerified: true,
        approved: user.approved || settings.selfSignup,
        passwordHash: activated,
      });
      if (!verified) throw new InvalidInputError(BAD_CODE);
      announce(verified, 'update');
      return {
        success: true,
        access_token: await deps.accessTokens.issueToken(verified),
        user: toPublicUser(verified),
      };
    },

    /** resendOtp mails a new code to an unverified account; the answer never says whether one exists. */
    async resendOtp(appId: string, email: string, from: RequestOrigin) {
      await deps.throttle('otp', from.ip, email);
      const user = await deps.users.findByEmail(appId, email);
      if (user && !user.is_verified && !user.disabled) {
        // After the answer, like register: how long it takes must not tell whether the email is pending.
        // The new code confirms the pending password; after conflicting sign-ups there is none to confirm.
        const pendingHash = user.password_hash;
        afterAnswer('verification mail', async () => {
          if (pendingHash) await codeMail(appId, user.email, await storeCode(user.id, pendingHash));
          else {
            await deps.mailer.send({
              to: user.email,
              subject: `Sign-up on ${appId}`,
              text: CONFLICTING_SIGN_UP_NOTICE,
            });
          }
        });
      }
      return {
        success: true,
        message: 'If this email is waiting for verification, a new code has been sent',
      };
    },
  };
}
