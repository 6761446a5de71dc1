// Which providers `auth/config.jsonc` enables, and the start refused, naming the app secrets, when an
// enabled provider has no credentials.
import { describe, expect, it } from 'vitest';
import { AuthConfigSchema } from '../../schemas/auth-config';
import { enabledProviders, missingCredentials, requireProviderCredentials } from './sign-in-providers';

const config = (fields: object) => AuthConfigSchema.parse(fields);
const having =
  (...names: string[]) =>
  (name: string) =>
    names.includes(name);

describe('sign-in providers', () => {
  it('are off by default, email and password on; unknown keys are kept', () => {
    const defaults = config({ someFutureKey: 1 });
    expect(enabledProviders(defaults)).toEqual([]);
    expect(defaults).toMatchObject({ enableUsernamePassword: true, someFutureKey: 1 });
    expect(
      enabledProviders(config({ enableGoogleLogin: true, enableSSOLogin: true, enableGithubLogin: true })),
    ).toEqual(['google', 'github', 'sso']);
  });

  it('need the secrets the Base44 CLI names, the Google client id from the file or a secret', () => {
    expect(missingCredentials('google', config({}), having())).toEqual([
      'google_oauth_client_id',
      'google_oauth_client_secret',
    ]);
    expect(
      missingCredentials(
        'google',
        config({ googleOAuthClientId: 'id' }),
        having('google_oauth_client_secret'),
      ),
    ).toEqual([]);
    expect(missingCredentials('github', config({}), having('github_oauth_client_id'))).toEqual([
      'github_oauth_client_secret',
    ]);
    expect(
      missingCredentials('apple', config({}), having('apple_oauth_client_id', 'apple_oauth_team_id')),
    ).toEqual(['apple_oauth_key_id', 'apple_oauth_private_key']);
  });

  it('accept SSO by discovery URL or by its four endpoints', () => {
    const sso = config({ enableSSOLogin: true });
    expect(
      missingCredentials('sso', sso, having('sso_client_id', 'sso_client_secret', 'sso_discovery_url')),
    ).toEqual([]);
    expect(
      missingCredentials(
        'sso',
        sso,
        having(
          'sso_client_id',
          'sso_client_secret',
          'sso_auth_endpoint',
          'sso_token_endpoint',
          'sso_userinfo_endpoint',
          'sso_jwks_uri',
        ),
      ),
    ).toEqual([]);
    expect(
      missingCredentials('sso', sso, having('sso_client_id', 'sso_client_secret', 'sso_auth_endpoint')),
    ).toEqual(['sso_token_endpoint', 'sso_userinfo_endpoint', 'sso_jwks_uri']);
    expect(missingCredentials('sso', sso, having())[2]).toContain('sso_discovery_url (or sso_auth_endpoint');
  });

  it('stop the start naming the file, each provider and its missing secrets', () => {
    const both = config({ enableGoogleLogin: true, enableMicrosoftLogin: true });
    expect(() =>
      requireProviderCredentials(both, 'base44/auth/config.jsonc', ['microsoft_oauth_client_id']),
    ).toThrow(
      'base44/auth/config.jsonc enables sign-in providers without their credentials: Google needs the app secrets google_oauth_client_id, google_oauth_client_secret; Microsoft needs the app secrets microsoft_oauth_client_secret.',
    );
    expect(() =>
      requireProviderCredentials(both, 'f', [
        'google_oauth_client_id',
        'google_oauth_client_secret',
        'microsoft_oauth_client_id',
        'microsoft_oauth_client_secret',
      ]),
    ).not.toThrow();
  });
});
