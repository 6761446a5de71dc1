// The app user an external sign-in lands on. A provider only vouches for an address it says it verified:
// an existing account is signed in only then (else someone who registered the address at a lax provider
// would take the account over), a pending email sign-up's password is dropped when the provider proves the
// mailbox (its owner may not be who set it), and a new account is approved exactly as email sign-up does.
import { randomUUID } from 'node:crypto';
import { ForbiddenError } from '../../lib/errors';
import { defaultFullName, type AccountDeps, type AnnounceUser } from './account-deps';

/** ProviderIdentity is what the provider said about the person signing in. */
export interface ProviderIdentity {
  email: string;
  emailVerified: boolean;
  name?: string | undefined;
}

/** ProviderSignedIn is our token for the user, and whether the sign-in created the account. */
export interface ProviderSignedIn {
  userId: string;
  accessToken: string;
  isNewUser: boolean;
}

/** ProviderAccounts finds or creates the app user for a provider's identity and mints our token. */
export interface ProviderAccounts {
  signIn(appId: string, identity: ProviderIdentity): Promise<ProviderSignedIn>;
}

const UNVERIFIED =
  'The provider did not confirm that you own this email address, and an account already uses it: sign in with your password, or verify the address with the provider first';

/** createProviderAccounts returns the account side of external sign-in. */
export function createProviderAccounts(deps: AccountDeps, announce: AnnounceUser): ProviderAccounts {
  return {
    async signIn(appId, identity) {
      await deps.apps.requireApp(appId);
      const existing = await deps.users.findByEmail(appId, identity.email);
      const settings = await deps.apps.findAccessSettings(appId);
      if (existing) {
        if (!identity.emailVerified) throw new ForbiddenError(UNVERIFIED, 'email_not_verified');
        if (existing.disabled) throw new ForbiddenError('This account is disabled', 'user_disabled');
        let user = existing;
        if (!existing.is_verified) {
          await deps.codes.deleteOtp(existing.id);
          await deps.users.clearPendingPassword(appId, existing.id);
          const updated = await deps.users.update(appId, existing.id, {
            isVerified: true,
            approved: existing.approved || settings.selfSignup,
          });
          if (updated) {
            announce(updated, 'update');
            user = updated;
          }
        }
        return { userId: user.id, accessToken: await deps.accessTokens.issueToken(user), isNewUser: false };
      }
      if (!identity.emailVerified) {
        throw new ForbiddenError(
          'The provider did not confirm that you own this email address: verify it with the provider, then sign in again',
          'email_not_verified',
        );
      }
      // As email sign-up: the account exists and is verified; without self-sign-up an admin must still let
      // it in (the app then shows its "not registered" screen).
      const user = await deps.users.insert({
        id: randomUUID(),
        appId,
        email: identity.email,
        fullName: identity.name?.trim() || defaultFullName(identity.email),
        role: deps.roles.defaultRole,
        isVerified: true,
        approved: settings.selfSignup,
        passwordHash: null,
      });
      announce(user, 'create');
      return { userId: user.id, accessToken: await deps.accessTokens.issueToken(user), isNewUser: true };
    },
  };
}
