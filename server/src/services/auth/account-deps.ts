import type { AuthCodesStore } from '../../store/auth-codes-store';
import type { UsersStore, UserRow } from '../../store/users-store';
import type { PublicUser } from '../users/public-user';
import type { AppsService } from '../apps/apps-service';
import type { AppRoles } from '../users/app-roles';
import type { Mailer } from '../mail/mailer';
import type { PasswordHasher } from './password-hasher';
import type { AuthThrottle } from './auth-throttle';
import type { AccessTokens } from '../identity/access-tokens';
import type { TurnstileVerifier } from './turnstile';

/** AccountLog is the part of a logger the account services use (never given a secret). */
export interface AccountLog {
  warn(details: object, message: string): void;
}

/** AccountDeps is what the sign-up, sign-in and user services share; platform/platform.ts builds it once. */
export interface AccountDeps {
  users: UsersStore;
  codes: AuthCodesStore;
  apps: AppsService;
  /** roles are the app's roles (User.jsonc's declaration, else admin and user) and new users' default. */
  roles: AppRoles;
  accessTokens: AccessTokens;
  hasher: PasswordHasher;
  mailer: Mailer;
  throttle: AuthThrottle;
  turnstile: TurnstileVerifier;
  otpTtlSeconds: number;
  log: AccountLog;
  /**
   * appResetPage says the hosted app has its own `/reset-password` page (the 2026 template): reset and
   * invite links go there as `?token=`, else to our sign-in page as `/login?reset_token=` / `?invite_token=`.
   */
  appResetPage?: boolean;
}

/** RequestOrigin is where a call came from: the IP for throttling and the origin for mailed links. */
export interface RequestOrigin {
  ip: string;
  /**
   * linkOrigin returns the origin mailed links point to (PUBLIC_URL or the server's own address); it throws
   * NotConfiguredError when the server cannot know it safely, so it is asked only when a link is mailed.
   */
  linkOrigin: () => string;
}

/** RESET_TTL_MS is how long a password reset link stays valid. */
export const RESET_TTL_MS = 60 * 60 * 1000;
/** INVITE_TTL_MS is how long an invite link stays valid. */
export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** defaultFullName is the name given to an account created from an email alone. */
export function defaultFullName(email: string): string {
  return email.split('@')[0] ?? email;
}

/** AuthNotice is an answer that only says the request was taken, and what happens next. */
export interface AuthNotice {
  success: boolean;
  message: string;
}

/** SignedIn is a signed-in user's access token and public record. */
export interface SignedIn {
  access_token: string;
  user: PublicUser;
}

/** AnnounceUser tells realtime subscribers of the User entity that a user was created or changed. */
export type AnnounceUser = (user: UserRow, type: 'create' | 'update') => unknown;
