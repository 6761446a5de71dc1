// Accounts: sign-up, sign-in, password reset, invites and the users API, on the shared identity; the
// public settings the site asks first; and the external provider sign-in pages.
import { registerAuthRoutes } from '../../routes/auth';
import { registerProviderSignInRoutes } from '../../routes/provider-sign-in';
import { registerPublicSettingsRoutes } from '../../routes/public-settings';
import { registerUsersRoutes } from '../../routes/users';
import { createAccounts, type Accounts } from '../../services/auth/accounts';
import { USER_ENTITY } from '../../project/user-entity';
import { createAuthCodesStore } from '../../store/auth-codes-store';
import type { Part, Shared } from './part';

/** AuthPart is the accounts service, for the parts that act on users (entities, admin, functions). */
export interface AuthPart extends Part {
  accounts: Accounts;
}

/** buildAuthPart builds the accounts on the shared identity, with the project's User entity and events. */
export async function buildAuthPart(shared: Shared): Promise<AuthPart> {
  const { config, apps } = shared;
  const accounts = await createAccounts({
    config,
    identity: shared.identity,
    codes: createAuthCodesStore(shared.db),
    apps,
    mailer: shared.mailer,
    log: shared.logger,
    userEntity: shared.project.entities.get(USER_ENTITY),
    events: shared.events,
    limiter: shared.limiter,
    appResetPage: shared.bundle.authPages.resetPassword,
  });
  return {
    name: 'auth',
    accounts,
    routes(app, edge) {
      const { guard, publicUrl, returnOrigins } = edge;
      registerPublicSettingsRoutes(app, { apps, guard });
      registerAuthRoutes(app, { ...accounts, guard, publicUrl, returnOrigins });
      registerProviderSignInRoutes(app, { publicUrl, returnOrigins });
      registerUsersRoutes(app, { guard, users: accounts.users, publicUrl });
    },
  };
}
