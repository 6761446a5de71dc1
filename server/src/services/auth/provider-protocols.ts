// Which protocol serves each sign-in provider, configured from the app's secrets on each use (a secret
// changed through the CLI or the admin API takes effect at the next sign-in).
import type { AuthConfig } from '../../schemas/auth-config';
import { APPLE_OPTIONS, APPLE_SCOPE, appleConfiguration } from './apple-client-secret';
import { MICROSOFT_OPTIONS, MICROSOFT_SCOPE, microsoftConfiguration } from './microsoft-issuer';
import { facebookProtocol, githubProtocol } from './oauth2-providers';
import { createDiscoveries, oidcConfiguration, oidcProtocol, type ReadSecret } from './oidc-client';
import type { ProviderProtocol } from './provider-protocol';
import type { SignInProvider } from './sign-in-providers';

/** SERVED_PROVIDERS are the providers this server can sign people in with. */
export const SERVED_PROVIDERS: readonly SignInProvider[] = [
  'google',
  'sso',
  'microsoft',
  'apple',
  'github',
  'facebook',
];

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
        case 'microsoft':
          return oidcProtocol(
            await microsoftConfiguration(secret, discoveries),
            MICROSOFT_SCOPE,
            MICROSOFT_OPTIONS,
          );
        case 'apple':
          return oidcProtocol(await appleConfiguration(secret, discoveries), APPLE_SCOPE, APPLE_OPTIONS);
        case 'github':
          return githubProtocol(secret);
        case 'facebook':
          return facebookProtocol(secret);
      }
    },
  };
}
