// Accounts: sign-up, sign-in, password reset, invites and the users API, on the shared identity; the
// public settings the site asks first; and the external provider sign-in pages.
import { registerAuthRoutes } from '../../routes/auth';
import { registerProviderSignInRoutes } from '../../routes/provider-sign-in';
import { registerPublicSettingsRoutes } from '../../routes/public-settings';
import { registerUsersRoutes } from '../../routes/users';
import { createAccounts, type Accounts } from '../../services/auth/accounts';
import { createProviderSignInService } from '../../services/auth/provider-sign-in-service';
import { createProviderProtocols } from '../../services/auth/provider-protocols';
import { createProviderTokenVault } from '../../services/auth/provider-token-vault';
import { createSignInStates } from '../../services/auth/sign-in-state';
import { enabledProviders, requireProviderCredentials } from '../../services/auth/sign-in-providers';
import type { SecretsService } from '../../services/secrets/secrets-service';
import { localUrlOf } from '../startup-report';
import { USER_ENTITY } from '../../project/user-entity';
import { createAuthCodesStore } from '../../store/auth-codes-store';
import { createProviderTokensStore } from '../../store/provider-tokens-store';
import type { Part, Shared } from './part';

/** AuthPart is the accounts service, for the parts that act on users (entities, admin, functions). */
export interface AuthPart extends Part {
  accounts: Accounts;
}

/**
 * checkSignInProviders stops the start when `auth/config.jsonc` enables a provider whose credentials (app
 * secrets) are not set, and names the callback URL to register with the providers it enables.
 */
async function checkSignInProviders(shared: Shared, secrets: SecretsService): Promise<void> {
  const auth = shared.project.auth;
  if (!auth?.file) return;
  const providers = enabledProviders(auth.config);
  if (providers.length === 0) return;
  requireProviderCredentials(auth.config, auth.file, await secrets.names(shared.config.APP_ID));
  const origin = shared.config.PUBLIC_URL ?? localUrlOf(shared.config);
  shared.logger.info(
    { providers, callbackUrl: `${origin}/api/apps/auth/callback` },
    'sign-in providers are enabled: register this callback URL with each',
  );
}

/** buildAuthPart builds the accounts on the shared identity, with the project's User entity and events. */
export async function buildAuthPart(shared: Shared, secrets: { secrets: SecretsService }): Promise<AuthPart> {
  const { config, apps } = shared;
  await checkSignInProviders(shared, secrets.secrets);
  const auth = shared.project.auth?.config;
  const protocols = createProviderProtocols(auth, (name) => secrets.secrets.get(config.APP_ID, name));
  const vault = createProviderTokenVault({
    key: shared.secrets.secretsKey,
    store: createProviderTokensStore(shared.db),
    protocols,
  });
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
    providerTokens: vault,
  });
  const providerSignIn = createProviderSignInService({
    appId: config.APP_ID,
    auth,
    protocols,
    vault,
    states: createSignInStates({
      key: shared.secrets.secretsKey,
      ttlMs: config.SIGN_IN_STATE_TTL_SECONDS * 1000,
      // One hit allowed per state id, in Redis when shared: a replay on any instance is refused.
      markUsed: async (id, ttlMs) => (await shared.limiter.hit(`sign-in-state:${id}`, 1, ttlMs)).allowed,
    }),
    accounts: accounts.providerAccounts,
    throttle: accounts.throttle,
  });
  return {
    name: 'auth',
    accounts,
    async routes(app, edge) {
      const { guard, publicUrl, returnOrigins } = edge;
      registerPublicSettingsRoutes(app, { apps, guard });
      registerAuthRoutes(app, { ...accounts, guard, publicUrl, returnOrigins });
      await registerProviderSignInRoutes(app, {
        appId: config.APP_ID,
        signIn: providerSignIn,
        publicUrl,
        returnOrigins,
      });
      registerUsersRoutes(app, { guard, users: accounts.users, publicUrl });
    },
  };
}
