// The external sign-in providers an app enables (`auth/config.jsonc`) and the app secrets each needs, named
// as the Base44 CLI names them. An enabled provider without its credentials stops the start, naming them.
import { NotConfiguredError } from '../../lib/errors';
import type { AuthConfig } from '../../schemas/auth-config';

/** SignInProvider is a provider a Base44 app may enable (`sso` is any OpenID Connect provider). */
export type SignInProvider = 'google' | 'microsoft' | 'facebook' | 'apple' | 'github' | 'sso';

/** PROVIDER_LABELS are how people name the providers. */
export const PROVIDER_LABELS: Record<SignInProvider, string> = {
  google: 'Google',
  microsoft: 'Microsoft',
  facebook: 'Facebook',
  apple: 'Apple',
  github: 'GitHub',
  sso: 'single sign-on (SSO)',
};

const ENABLED_BY: Record<SignInProvider, keyof AuthConfig> = {
  google: 'enableGoogleLogin',
  microsoft: 'enableMicrosoftLogin',
  facebook: 'enableFacebookLogin',
  apple: 'enableAppleLogin',
  github: 'enableGithubLogin',
  sso: 'enableSSOLogin',
};

/** SSO_ENDPOINTS are the secrets that replace `sso_discovery_url` when a provider has no discovery. */
const SSO_ENDPOINTS = ['sso_auth_endpoint', 'sso_token_endpoint', 'sso_userinfo_endpoint', 'sso_jwks_uri'];

/** enabledProviders lists the providers config enables, in a stable order. */
export function enabledProviders(config: AuthConfig): SignInProvider[] {
  return (Object.keys(ENABLED_BY) as SignInProvider[]).filter(
    (provider) => config[ENABLED_BY[provider]] === true,
  );
}

/** missingCredentials names the app secrets provider still needs, given the names the app has. */
export function missingCredentials(
  provider: SignInProvider,
  config: AuthConfig,
  has: (name: string) => boolean,
): string[] {
  const need = (...names: string[]) => names.filter((name) => !has(name));
  switch (provider) {
    case 'google':
      return [
        ...(config.googleOAuthClientId ? [] : need('google_oauth_client_id')),
        ...need('google_oauth_client_secret'),
      ];
    case 'apple':
      return need(
        'apple_oauth_client_id',
        'apple_oauth_team_id',
        'apple_oauth_key_id',
        'apple_oauth_private_key',
      );
    case 'sso': {
      const endpoints = has('sso_discovery_url') ? [] : need(...SSO_ENDPOINTS);
      return [
        ...need('sso_client_id', 'sso_client_secret'),
        // Either the discovery URL, or all four endpoints: name the discovery URL when none is set.
        ...(endpoints.length === SSO_ENDPOINTS.length
          ? [`sso_discovery_url (or ${SSO_ENDPOINTS.join(', ')})`]
          : endpoints),
      ];
    }
    default:
      return need(`${provider}_oauth_client_id`, `${provider}_oauth_client_secret`);
  }
}

/**
 * requireProviderCredentials throws NotConfiguredError naming, for each enabled provider, the app secrets it
 * lacks and how to set them; file is the config file, as the message names it.
 */
export function requireProviderCredentials(
  config: AuthConfig,
  file: string,
  secretNames: readonly string[],
): void {
  const names = new Set(secretNames);
  const problems = enabledProviders(config)
    .map((provider) => ({
      provider,
      missing: missingCredentials(provider, config, (name) => names.has(name)),
    }))
    .filter(({ missing }) => missing.length > 0)
    .map(
      ({ provider, missing }) => `${PROVIDER_LABELS[provider]} needs the app secrets ${missing.join(', ')}`,
    );
  if (problems.length === 0) return;
  throw new NotConfiguredError(
    `${file} enables sign-in providers without their credentials: ${problems.join('; ')}. Set each with \`npm run cli -- secrets set NAME\` (the value is read from stdin), or turn the provider off.`,
  );
}
