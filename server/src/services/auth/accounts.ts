import { createRateLimiter, type RateLimiter } from '../limits/rate-limiter';
import type { AuthCodesStore } from '../../store/auth-codes-store';
import type { AppsService } from '../apps/apps-service';
import type { EntityEvents } from '../entities/entity-events';
import type { EntityDef } from '../../project/project-loader';
import type { Mailer } from '../mail/mailer';
import type { Identity } from '../identity/identity';
import { appRolesOf } from '../users/app-roles';
import { createUserWrites, type UserWrites } from '../users/user-writes';
import { createUsersService, type ProviderAccessTokens, type UsersService } from './users-service';
import type { AccountLog } from './account-deps';
import type { AccessTokens } from '../identity/access-tokens';
import { createPasswordHasher } from './password-hasher';
import { createProviderAccounts, type ProviderAccounts } from './provider-accounts';
import { createAuthThrottle, type AuthThrottle } from './auth-throttle';
import { createSignInService, type SignInService } from './sign-in-service';
import { createSignUpService, type SignUpService } from './sign-up-service';
import { createTurnstileVerifier } from './turnstile';

/** AccountsConfig is the part of the server configuration accounts read. */
export interface AccountsConfig {
  JWT_EXPIRES_IN: string;
  OTP_TTL_SECONDS: number;
  AUTH_RATE_LIMIT_IP: number;
  AUTH_RATE_LIMIT_ACCOUNT: number;
  AUTH_RATE_LIMIT_WINDOW_SECONDS: number;
  TURNSTILE_SECRET?: string | undefined;
  TURNSTILE_VERIFY_URL: string;
}

/** createAccounts wires sign-up, sign-in and users from the identity, stores and configuration. */
export async function createAccounts(input: {
  config: AccountsConfig;
  /** identity is the token signer, the cached users store and the access tokens (services/identity). */
  identity: Identity;
  codes: AuthCodesStore;
  apps: AppsService;
  mailer: Mailer;
  log: AccountLog;
  /** appResetPage: the hosted app has its own `/reset-password` page for mailed links (AccountDeps). */
  appResetPage?: boolean | undefined;
  /**
   * userEntity and events make user writes validate custom fields and the declared roles, and reach realtime
   * subscribers. Without it the roles are `admin` and `user`.
   */
  userEntity?: EntityDef | undefined;
  events?: EntityEvents | undefined;
  /** limiter counts sign-in attempts (the platform passes the one shared through Redis); default in process. */
  limiter?: RateLimiter | undefined;
  /** providerTokens hands out the tokens external sign-in providers gave (sso.getAccessToken). */
  providerTokens?: ProviderAccessTokens | undefined;
}): Promise<Accounts> {
  const { config } = input;
  const { signer, users, tokens: accessTokens } = input.identity;
  const limiter = input.limiter ?? createRateLimiter();
  const roles = appRolesOf(input.userEntity);
  const deps = {
    codes: input.codes,
    users,
    apps: input.apps,
    roles,
    accessTokens,
    hasher: await createPasswordHasher(),
    mailer: input.mailer,
    throttle: createAuthThrottle(limiter, {
      perIp: config.AUTH_RATE_LIMIT_IP,
      perAccount: config.AUTH_RATE_LIMIT_ACCOUNT,
      windowMs: config.AUTH_RATE_LIMIT_WINDOW_SECONDS * 1000,
    }),
    turnstile: createTurnstileVerifier(config.TURNSTILE_SECRET, config.TURNSTILE_VERIFY_URL),
    otpTtlSeconds: config.OTP_TTL_SECONDS,
    log: input.log,
    appResetPage: input.appResetPage ?? false,
  };
  const userWrites = createUserWrites({
    users,
    roles,
    entity: input.userEntity,
    events: input.events,
  });
  const signIn = createSignInService(deps, userWrites.announce);
  return {
    userWrites,
    accessTokens,
    signIn,
    signUp: createSignUpService(deps, userWrites.announce),
    providerAccounts: createProviderAccounts(deps, userWrites.announce),
    throttle: deps.throttle,
    users: createUsersService(deps, signIn, signer, userWrites, input.providerTokens),
  };
}

/** Accounts is what the auth part hands its routes: the account services built on one set of deps. */
export interface Accounts {
  /** userWrites is the profile update shared by updateMe and the User entity's update/delete. */
  userWrites: UserWrites;
  /** accessTokens says who a bearer token is and mints tokens. */
  accessTokens: AccessTokens;
  /** signIn is password sign-in, reset by mailed link and password change. */
  signIn: SignInService;
  /** signUp is registration and email verification by one-time code. */
  signUp: SignUpService;
  /** providerAccounts finds or creates the user an external sign-in (Google, SSO) lands on. */
  providerAccounts: ProviderAccounts;
  /** throttle counts sign-in attempts against the auth rate limits. */
  throttle: AuthThrottle;
  /** users is the signed-in user's profile, invitations, SSO tokens and operator actions. */
  users: UsersService;
}
