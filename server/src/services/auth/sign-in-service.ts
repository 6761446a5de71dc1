import type { z } from 'zod';
import { ForbiddenError, InvalidInputError, UnauthorizedError } from '../../lib/errors';
import { randomSecret, sha256Hex } from '../../lib/secure-random';
import type { ChangePasswordSchema, LoginSchema, ResetPasswordSchema } from '../../schemas/auth';
import type { PasswordTokenPurpose } from '../../store/auth-codes-store';
import type { UserRow } from '../../store/users-store';
import { toPublicUser, type PublicUser } from '../users/public-user';
import {
  INVITE_TTL_MS,
  RESET_TTL_MS,
  type AccountDeps,
  type AnnounceUser,
  type AuthNotice,
  type RequestOrigin,
  type SignedIn,
} from './account-deps';

const BAD_LOGIN = 'Invalid email or password';
const BAD_RESET = 'The link is invalid, already used or expired: request a new one';

/** LoginInput is a validated `auth/login` body. */
export type LoginInput = z.infer<typeof LoginSchema>;
/** ResetPasswordInput is a validated `auth/reset-password` body. */
export type ResetPasswordInput = z.infer<typeof ResetPasswordSchema>;
/** ChangePasswordInput is a validated `auth/change-password` body. */
export type ChangePasswordInput = z.infer<typeof ChangePasswordSchema>;

/** PasswordChange is how a password change ended: a reset link mailed to another user, or a fresh token. */
export type PasswordChange =
  | { success: boolean; reset_link_sent: boolean; message: string; access_token?: undefined }
  | { success: boolean; message: string; access_token: string; reset_link_sent?: undefined };

/** TokenKind is what a sign-in mints: a plain token (the SDK's) or a session-bound one (the console's). */
export type TokenKind = 'token' | 'session';

/** SignInService is password sign-in, reset by mailed link and password change. */
export interface SignInService {
  /** issueSetPasswordLink stores a single-use token by its hash and returns the link to mail. */
  issueSetPasswordLink(user: UserRow, purpose: PasswordTokenPurpose, origin: string): Promise<string>;
  /**
   * login checks the password; wrong passwords and unknown emails get the same 401. A `session` login's
   * token is bound to a new sign-in session, which endSession ends (the console's sign-in).
   */
  login(appId: string, input: LoginInput, from: RequestOrigin, kind?: TokenKind): Promise<SignedIn>;
  /**
   * startSession trades a signed-in user's token for a session-bound one (after a provider's sign-in),
   * throttled as sign-ins are.
   */
  startSession(user: UserRow, from: RequestOrigin): Promise<{ access_token: string }>;
  /** endSession ends the session of the caller's token; a token bound to no session gets 400. */
  endSession(appId: string, authorization: string | undefined): Promise<{ ended: true }>;
  /** requestReset mails a reset link if the account exists; answer and timing never say whether it does. */
  requestReset(appId: string, email: string, from: RequestOrigin): Promise<AuthNotice>;
  /** resetPassword consumes a reset or invite token and sets the password; the token works once. */
  resetPassword(appId: string, input: ResetPasswordInput, from: RequestOrigin): Promise<AuthNotice>;
  /** mailAdminReset mails user the reset link an admin asked for (the console); a disabled user gets 400. */
  mailAdminReset(user: UserRow, origin: string): Promise<void>;
  /** changePassword sets the caller's own password, or mails another user (an admin's call) a reset link. */
  changePassword(caller: UserRow, input: ChangePasswordInput, from: RequestOrigin): Promise<PasswordChange>;
}

/** createSignInService returns password sign-in, reset by mailed link and password change. */
export function createSignInService(
  deps: AccountDeps,
  announce: AnnounceUser = () => undefined,
): SignInService {
  /** issueSetPasswordLink stores a single-use token by its hash and returns the link to mail. */
  async function issueSetPasswordLink(user: UserRow, purpose: PasswordTokenPurpose, origin: string) {
    const token = randomSecret();
    const ttl = purpose === 'invite' ? INVITE_TTL_MS : RESET_TTL_MS;
    await deps.codes.insertPasswordToken({
      token_hash: sha256Hex(token),
      user_id: user.id,
      purpose,
      expires_at: new Date(Date.now() + ttl),
    });
    // The app's own page calls auth/reset-password with the token, which takes invite tokens too.
    if (deps.appResetPage) return `${origin}/reset-password?token=${encodeURIComponent(token)}`;
    const param = purpose === 'invite' ? 'invite_token' : 'reset_token';
    return `${origin}/login?${param}=${encodeURIComponent(token)}`;
  }

  /** mailResetLink mails user a reset link; `admin` mails say an admin asked for it. */
  async function mailResetLink(appId: string, user: UserRow, origin: string, by: 'requested' | 'admin') {
    const link = await issueSetPasswordLink(user, 'reset', origin);
    const why =
      by === 'admin'
        ? `An admin of ${appId} asked you to choose a new password. Your current password keeps working until you do.`
        : 'Someone (hopefully you) asked to reset your password.';
    await deps.mailer.send({
      to: user.email,
      subject: `Reset your ${appId} password`,
      text: `${why}\n\nOpen this link within 1 hour to choose a new password:\n\n${link}\n\nIt works once. If you did not ask for it, ignore this mail.\n`,
    });
  }

  return {
    issueSetPasswordLink,

    /** mailAdminReset is the admin's reset mail of changePassword, asked for from the console's Users page. */
    async mailAdminReset(user: UserRow, origin: string) {
      if (user.disabled)
        throw new InvalidInputError('The user is disabled: enable them before mailing a reset');
      await mailResetLink(user.app_id, user, origin, 'admin');
    },

    /** login checks the password; wrong passwords and unknown emails get the same 401. */
    async login(
      appId: string,
      input: { email: string; password: string; turnstile_token?: string | undefined },
      from: RequestOrigin,
      kind: TokenKind = 'token',
    ): Promise<{ access_token: string; user: PublicUser }> {
      await deps.throttle('login', from.ip, input.email);
      await deps.turnstile(input.turnstile_token, from.ip);
      const user = await deps.users.findByEmail(appId, input.email);
      // Unknown emails are checked against a dummy hash, so both paths take the same time.
      const ok = await deps.hasher.verify(user?.password_hash ?? null, input.password);
      if (!user || !ok || user.disabled) throw new UnauthorizedError(BAD_LOGIN);
      if (!user.is_verified) {
        throw new ForbiddenError(
          'Verify your email with the code we sent before signing in',
          'email_not_verified',
        );
      }
      const token =
        kind === 'session' ? deps.accessTokens.startSession(user) : deps.accessTokens.issueToken(user);
      return { access_token: await token, user: toPublicUser(user) };
    },

    async startSession(user: UserRow, from: RequestOrigin) {
      await deps.throttle('login', from.ip, user.email);
      return { access_token: await deps.accessTokens.startSession(user) };
    },

    async endSession(appId: string, authorization: string | undefined) {
      const end = await deps.accessTokens.endSession(appId, authorization);
      if (end === 'no-session')
        throw new InvalidInputError('This token belongs to no session: it lasts until it expires');
      return { ended: true as const };
    },

    /** requestReset mails a reset link if the account exists; the answer and timing never say whether it does. */
    async requestReset(appId: string, email: string, from: RequestOrigin) {
      await deps.throttle('reset', from.ip, email);
      // Resolved before answering, for every email alike: a server that cannot build a safe link says so.
      const origin = from.linkOrigin();
      const work = async () => {
        const user = await deps.users.findByEmail(appId, email);
        if (!user || user.disabled) return;
        await mailResetLink(appId, user, origin, 'requested');
      };
      // Done after answering, so the response time does not reveal whether the email exists.
      void work().catch((error: unknown) => deps.log.warn({ err: error }, 'password reset mail failed'));
      return { success: true, message: 'If an account exists for this email, a reset link has been sent' };
    },

    /** resetPassword consumes a reset or invite token and sets the password; the token works once. */
    async resetPassword(
      appId: string,
      input: { reset_token: string; new_password: string },
      from: RequestOrigin,
    ) {
      await deps.throttle('reset', from.ip);
      const token = await deps.codes.takePasswordToken(sha256Hex(input.reset_token));
      const user = token ? await deps.users.findById(appId, token.user_id) : null;
      if (!token || !user || user.disabled || new Date(token.expires_at).getTime() <= Date.now()) {
        throw new InvalidInputError(BAD_RESET);
      }
      const passwordHash = await deps.hasher.hash(input.new_password);
      // The link proved the mailbox, so the email counts as verified; an invite also grants access.
      const updated = await deps.users.update(appId, user.id, {
        passwordHash,
        isVerified: true,
        approved: user.approved || token.purpose === 'invite',
      });
      // Realtime hears of it too: the user's open sockets re-check their (now void) tokens.
      if (updated) announce(updated, 'update');
      await deps.codes.deletePasswordTokens(user.id);
      // A sign-up code still pending (perhaps someone else's) must not set another password later.
      await deps.codes.deleteOtp(user.id);
      return { success: true, message: 'Your password has been set: sign in with it' };
    },

    /**
     * changePassword sets the caller's own password, given its current one, and returns a fresh token (the
     * change voids every earlier one). No one sets another user's password: for another user an admin
     * (who also gives its current password) only gets a reset link mailed to that user.
     */
    async changePassword(
      caller: UserRow,
      input: { user_id: string; current_password: string; new_password: string },
      from: RequestOrigin,
    ) {
      await deps.throttle('change-password', from.ip, caller.email);
      if (input.user_id !== caller.id && caller.role !== 'admin') {
        throw new ForbiddenError("Only an admin may change another user's password");
      }
      if (!(await deps.hasher.verify(caller.password_hash, input.current_password))) {
        throw new InvalidInputError('current_password: is incorrect');
      }
      if (input.user_id !== caller.id) {
        const origin = from.linkOrigin();
        const target = await deps.users.findById(caller.app_id, input.user_id);
        if (!target) throw new InvalidInputError('user_id: no such user');
        if (target.disabled) throw new InvalidInputError('user_id: the user is disabled');
        await mailResetLink(caller.app_id, target, origin, 'admin');
        return {
          success: true,
          reset_link_sent: true,
          message: 'A reset link was mailed to the user: only they choose their new password',
        };
      }
      const updated = await deps.users.update(caller.app_id, caller.id, {
        passwordHash: await deps.hasher.hash(input.new_password),
      });
      if (!updated) throw new UnauthorizedError('Your account no longer exists');
      announce(updated, 'update');
      await deps.codes.deletePasswordTokens(caller.id);
      return {
        success: true,
        message: 'Password changed: other sessions are signed out',
        access_token: await deps.accessTokens.issueToken(updated),
      };
    },
  };
}
