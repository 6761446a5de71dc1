// The OpenID Connect relying party for Google and SSO, through openid-client (discovery, PKCE, the code
// exchange and every ID token check: issuer, audience, nonce, expiry, signature, `iss` in the callback).
// Credentials are app secrets named as the Base44 CLI names them (sign-in-providers.ts).
import * as client from 'openid-client';
import { NotConfiguredError, UnauthorizedError, UpstreamError } from '../../lib/errors';
import type { AuthConfig } from '../../schemas/auth-config';
import type { SignInProvider } from './sign-in-providers';

/** GOOGLE_DISCOVERY_URL is Google's, replaced by the app secret `google_oauth_discovery_url` (tests, proxies). */
export const GOOGLE_DISCOVERY_URL = 'https://accounts.google.com/.well-known/openid-configuration';
/** DEFAULT_SSO_SCOPE is asked for when the app sets no `sso_scope`. */
export const DEFAULT_SSO_SCOPE = 'openid email profile';
/** PROVIDER_TIMEOUT_SECONDS bounds each call to a provider: an unreachable one is a 502, never a hang. */
export const PROVIDER_TIMEOUT_SECONDS = 10;

/** OidcProviders are the providers this relying party serves so far. */
export const OIDC_PROVIDERS: readonly SignInProvider[] = ['google', 'sso'];

/** ReadSecret returns an app secret's value, or undefined. */
export type ReadSecret = (name: string) => Promise<string | undefined>;

/** OidcClient is a provider's configuration for one sign-in and the scope to ask for. */
export interface OidcClient {
  config: client.Configuration;
  scope: string;
}

/** isLoopbackHttp says whether url is plain http to this machine (a test provider): allowed, nothing else is. */
function isLoopbackHttp(url: URL): boolean {
  return url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

function urlOf(name: string, value: string): URL {
  try {
    const url = new URL(value);
    if (url.protocol === 'https:' || isLoopbackHttp(url)) return url;
  } catch {
    // named below
  }
  throw new NotConfiguredError(`The app secret ${name} must be an https URL`);
}

/** upstream turns a failure to reach or read the provider into a 502 that names no secret. */
export function providerFailure(error: unknown, step: string): Error {
  if (error instanceof client.ResponseBodyError || error instanceof client.AuthorizationResponseError) {
    return new UnauthorizedError(`The provider refused the sign-in (${error.error})`, 'provider_refused');
  }
  const code = (error as { code?: unknown } | null)?.code;
  // A check the provider's answer failed (ID token issuer, audience, nonce, expiry, `iss`…).
  if (error instanceof client.ClientError && typeof code === 'string' && !code.startsWith('OAUTH_HTTP')) {
    if (code !== 'OAUTH_RESPONSE_IS_NOT_CONFORM' && code !== 'OAUTH_RESPONSE_IS_NOT_JSON') {
      return new UnauthorizedError(
        `The provider's answer failed a check (${code}): sign in again`,
        'provider_refused',
      );
    }
  }
  return new UpstreamError(`The sign-in provider could not be reached or answered wrongly (${step})`);
}

/** oidcClient builds provider's configuration from the app's secrets (discovery or explicit endpoints). */
export async function oidcClient(
  provider: SignInProvider,
  auth: AuthConfig | undefined,
  secret: ReadSecret,
): Promise<OidcClient> {
  const need = async (name: string) => {
    const value = await secret(name);
    if (!value) throw new NotConfiguredError(`Sign-in needs the app secret ${name}`);
    return value;
  };
  if (provider === 'google') {
    const clientId = auth?.googleOAuthClientId || (await need('google_oauth_client_id'));
    const discovery = (await secret('google_oauth_discovery_url')) ?? GOOGLE_DISCOVERY_URL;
    const url = urlOf('google_oauth_discovery_url', discovery);
    return {
      config: await discover(url, clientId, await need('google_oauth_client_secret')),
      scope: 'openid email profile',
    };
  }
  if (provider !== 'sso') throw new NotConfiguredError(`Sign-in with ${provider} is not available yet`);
  const clientId = await need('sso_client_id');
  const clientSecret = await need('sso_client_secret');
  const scope = (await secret('sso_scope'))?.trim() || DEFAULT_SSO_SCOPE;
  const discovery = await secret('sso_discovery_url');
  if (discovery)
    return { config: await discover(urlOf('sso_discovery_url', discovery), clientId, clientSecret), scope };
  const authorization = urlOf('sso_auth_endpoint', await need('sso_auth_endpoint'));
  const issuer = (await secret('sso_issuer')) ?? authorization.origin;
  const metadata: client.ServerMetadata = {
    issuer,
    authorization_endpoint: authorization.href,
    token_endpoint: urlOf('sso_token_endpoint', await need('sso_token_endpoint')).href,
    userinfo_endpoint: urlOf('sso_userinfo_endpoint', await need('sso_userinfo_endpoint')).href,
    jwks_uri: urlOf('sso_jwks_uri', await need('sso_jwks_uri')).href,
  };
  const config = new client.Configuration(metadata, clientId, clientSecret);
  config.timeout = PROVIDER_TIMEOUT_SECONDS;
  if (isLoopbackHttp(authorization)) client.allowInsecureRequests(config);
  return { config, scope };
}

async function discover(url: URL, clientId: string, clientSecret: string): Promise<client.Configuration> {
  try {
    const config = await client.discovery(url, clientId, clientSecret, undefined, {
      timeout: PROVIDER_TIMEOUT_SECONDS,
      ...(isLoopbackHttp(url) ? { execute: [client.allowInsecureRequests] } : {}),
    });
    config.timeout = PROVIDER_TIMEOUT_SECONDS;
    return config;
  } catch (error) {
    throw new UpstreamError(
      `The sign-in provider's discovery document could not be read (${url.origin}): ${(error as Error).message}`,
    );
  }
}
