import { randomUUID } from 'node:crypto';
import { InvalidInputError } from '../../lib/errors';
import type { UserRow } from '../../store/users-store';
import { toPublicUser, type PublicUser } from '../users/public-user';
import { defaultFullName, type AccountDeps, type RequestOrigin } from './account-deps';
import { checkOtp, newOtp, OTP_MAX_FAILED_ATTEMPTS } from './otp-rules';

/** RegisterInput is a validated sign-up request. */
export interface RegisterInput {
  email: string;
  password: string;
  turnstile_token?: string | undefined;
}

const BAD_CODE = 'The verification code is invalid or has expired: request a new one';

/** AnnounceUser tells realtime subscribers of the User entity that a user was created or changed. */
export type AnnounceUser = (user: UserRow, type: 'create' | 'update') => unknown;

/**
 * createSignUpService returns registration and email verification by one-time code; announce hears of
 * each new account and each verification.
 */
export function createSignUpService(deps: AccountDeps, announce: AnnounceUser = () => undefined) {
  async function mailCode(appId: string, userId: string, email: string): Promise<void> {
    const otp = newOtp(userId, deps.otpTtlSeconds);
    await deps.codes.replaceOtp(userId, otp.hash, otp.expiresAt);
    const minutes = Math.round(deps.otpTtlSeconds / 60);
    await deps.mailer.send({
      to: email,
      subject: `Your ${appId} verification code`,
      text: `Your verification code is ${otp.code}\n\nIt expires in ${minutes} minutes. If you did not sign up, ignore this mail.\n`,
    });
  }

  const accepted = () => ({
    success: true,
    message: 'Check your email for a verification code',
    otp_expires_in_minutes: Math.round(deps.otpTtlSeconds / 60),
  });

  return {
    /**
     * register creates an unverified account (or refreshes an unverified one) and mails a code.
     * The answer is the same whether or not the email already has an account.
     */
    async register(appId: string, input: RegisterInput, from: RequestOrigin) {
      await deps.throttle('register', from.ip, input.email);
      await deps.turnstile(input.turnstile_token, from.ip);
      await deps.apps.requireApp(appId);
      const passwordHash = await deps.hasher.hash(input.password);
      const existing = await deps.users.findByEmail(appId, input.email);
      if (existing?.is_verified) {
        await deps.mailer.send({
          to: existing.email,
          subject: `Sign-up attempt on ${appId}`,
          text: 'Someone tried to sign up with this email, which already has an account. Sign in, or reset your password if you forgot it.\n',
        });
        return accepted();
      }
      const user = existing
        ? ((await deps.users.update(appId, existing.id, { passwordHash })) ?? existing)
        : await deps.users.insert({
            id: randomUUID(),
            appId,
            email: input.email,
            fullName: defaultFullName(input.email),
            role: 'user',
            isVerified: false,
            approved: false,
            passwordHash,
          });
      if (!existing) announce(user, 'create');
      await mailCode(appId, user.id, user.email);
      return accepted();
    },

    /** verifyOtp checks the code; on success the user is verified (and approved if self-sign-up is on). */
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
      if (outcome !== 'ok') throw new InvalidInputError(BAD_CODE);
      await deps.codes.deleteOtp(user.id);
      const settings = await deps.apps.findAccessSettings(appId);
      const verified = await deps.users.update(appId, user.id, {
        isVerified: true,
        approved: user.approved || settings.selfSignup,
      });
      if (!verified) throw new InvalidInputError(BAD_CODE);
      announce(verified, 'update');
      return {
        success: true,
        access_token: await deps.sessions.issueToken(verified),
        user: toPublicUser(verified),
      };
    },

    /** resendOtp mails a new code to an unverified account; the answer never says whether one exists. */
    async resendOtp(appId: string, email: string, from: RequestOrigin) {
      await deps.throttle('otp', from.ip, email);
      const user = await deps.users.findByEmail(appId, email);
      if (user && !user.is_verified && !user.disabled) await mailCode(appId, user.id, user.email);
      return {
        success: true,
        message: 'If this email is waiting for verification, a new code has been sent',
      };
    },
  };
}

export type SignUpService = ReturnType<typeof createSignUpService>;
