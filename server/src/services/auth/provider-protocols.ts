// Which protocol serves each sign-in provider, configured from the app's secrets on each use (a secret
// changed through the CLI or the admin API takes effect at the next sign-in).
import { NotConfiguredError } from '../../lib/errors';
import type { AuthConfig } from '../../schemas/auth-config';
import { createDiscoveries, oidcConfiguration, oidcProtocol, type ReadSecret } from './oidc-client';
import type { ProviderProtocol } from './provider-protocol';
import type { SignInProvider } from './sign-in-providers';

/** SERVED_PROVIDERS are the providers this server can sign people in with. */
export const SERVED_PROVIDERS: readonly SignInProvider[] = ['google', 'sso'];

/** ProviderProtocols configures a provider's protocol for one sign-in or one token refresh. */
export interface ProviderProtocols {
  serves(provider: string): provider is SignInProvider;
  protocolFor(provider: SignInProvider): Promise<ProviderProtocol>;
}

/** createProviderProtocols returns the protocols of the app's providers, sharing one discovery cache. */
export function createProviderProtocols(auth: AuthConfig | undefined, secret: ReadSecret): ProviderProtocols {
  const discoveries = createDiscoveries();
  return {
    serves: (provider): provider is SignInProvider =>
      (SERVED_PROVIDERS as readonly string[]).includes(provider),
    async protocolFor(provider) {
      switch (provider) {
        case 'google':
        case 'sso': {
          const { config, scope } = await oidcConfiguration(provider, auth, secret, discoveries);
          return oidcProtocol(config, scope);
        }
        default:
          throw new NotConfiguredError(`Sign-in with ${provider} is not available yet`);
      }
    },
  };
}
