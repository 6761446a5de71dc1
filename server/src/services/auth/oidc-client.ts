// The OpenID Connect relying party for Google and SSO, through openid-client (discovery, PKCE, the code
// exchange and every ID token check: issuer, audience, nonce, expiry, signature, `iss` in the callback).
// Credentials are app secrets named as the Base44 CLI names them (sign-in-providers.ts).
import * as client from 'openid-client';
import { NotConfiguredError, UnauthorizedError, UpstreamError } from '../../lib/errors';
import { sha256Hex } from '../../lib/secure-random';
import type { AuthConfig } from '../../schemas/auth-config';
import type { ProviderProtocol, ProviderTokens } from './provider-protocol';
import type { SignInProvider } from './sign-in-providers';

/** GOOGLE_DISCOVERY_URL is Google's, replaced by the app secret `google_oauth_discovery_url` (tests, proxies). */
export const GOOGLE_DISCOVERY_URL = 'https://accounts.google.com/.well-known/openid-configuration';
/** DEFAULT_SSO_SCOPE is asked for when the app sets no `sso_scope`. */
export const DEFAULT_SSO_SCOPE = 'openid email profile';
/** PROVIDER_TIMEOUT_SECONDS bounds each call to a provider: an unreachable one is a 502, never a hang. */
export const PROVIDER_TIMEOUT_SECONDS = 10;
/** DISCOVERY_CACHE_MS is how long a provider's discovery document is reused (it changes rarely). */
export const DISCOVERY_CACHE_MS = 60 * 60 * 1000;

/** ReadSecret returns an app secret's value, or undefined. */
export type ReadSecret = (name: string) => Promise<string | undefined>;

/** isLoopbackHttp says whether url is plain http to this machine (a test provider): allowed, nothing else is. */
export function isLoopbackHttp(url: URL): boolean {
  return url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

/** secretUrl reads the app secret name's value as an https URL (or loopback http), or says it must be one. */
export function secretUrl(name: string, value: string): URL {
  try {
    const url = new URL(value);
    if (url.protocol === 'https:' || isLoopbackHttp(url)) return url;
  } catch {
    // named below
  }
  throw new NotConfiguredError(`The app secret ${name} must be an https URL`);
}

/** requireSecret reads an app secret the provider cannot work without. */
export function requireSecret(secret: ReadSecret): (name: string) => Promise<string> {
  return async (name) => {
    const value = await secret(name);
    if (!value) throw new NotConfiguredError(`Sign-in needs the app secret ${name}`);
    return value;
  };
}

/** providerFailure turns a failure to reach or read the provider into a 502 that names no secret. */
export function providerFailure(error: unknown, step: string): Error {
  if (error instanceof UnauthorizedError || error instanceof UpstreamError) return error;
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

/** tokensOf keeps what a token response says about the provider's tokens. */
export function tokensOf(
  response: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers,
): ProviderTokens {
  const expiresIn = response.expiresIn();
  return {
    accessToken: response.access_token,
    refreshToken: response.refresh_token,
    expiresAt: expiresIn === undefined ? undefined : Math.floor(Date.now() / 1000) + expiresIn,
    idToken: response.id_token,
    scope: response.scope,
  };
}

/** OidcOptions are a provider's departures from plain OpenID Connect (Microsoft's and Apple's). */
export interface OidcOptions {
  /** emailVerified reads whether the provider verified the email (default: `email_verified` true or "true"). */
  emailVerified?: (claims: Record<string, unknown>) => boolean;
  /** authorizationParams are added to the redirect (Apple's `response_mode=form_post`). */
  authorizationParams?: Record<string, string>;
  /** callbackName reads a name the callback itself carries when the ID token has none (Apple's `user`). */
  callbackName?: (callbackUrl: URL) => string | undefined;
}

/** claimedVerified is OpenID Connect's `email_verified`, which some providers send as the string "true". */
export function claimedVerified(claims: Record<string, unknown>): boolean {
  return claims.email_verified === true || claims.email_verified === 'true';
}

/**
 * oidcProtocol is the OpenID Connect side of a sign-in on config: PKCE S256, state and nonce out; the code
 * exchange and ID token checks back, with the user info read when the ID token carries no email.
 */
export function oidcProtocol(
  config: client.Configuration,
  scope: string,
  options: OidcOptions = {},
): ProviderProtocol {
  const verified = options.emailVerified ?? claimedVerified;
  return {
    async authorizationUrl({ redirectUri, state, nonce, codeVerifier }) {
      return client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope,
        state,
        nonce,
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        ...options.authorizationParams,
      });
    },
    async exchange({ callbackUrl, state, nonce, codeVerifier }) {
      try {
        const response = await client.authorizationCodeGrant(config, callbackUrl, {
          pkceCodeVerifier: codeVerifier,
          expectedNonce: nonce,
          expectedState: state,
          idTokenExpected: true,
        });
        const claims = response.claims();
        if (!claims) throw new UnauthorizedError('The provider sent no ID token', 'provider_refused');
        let said: Record<string, unknown> = claims;
        // Many providers put the email in the user info only (scope `email` without ID token claims).
        if (typeof claims.email !== 'string') {
          said = await client.fetchUserInfo(config, response.access_token, claims.sub);
        }
        const name = typeof said.name === 'string' ? said.name : options.callbackName?.(callbackUrl);
        return {
          identity: {
            email: typeof said.email === 'string' ? said.email : undefined,
            emailVerified: verified(said),
            name,
          },
          tokens: tokensOf(response),
        };
      } catch (failure) {
        throw providerFailure(failure, 'code exchange');
      }
    },
    async refresh(refreshToken) {
      try {
        const tokens = tokensOf(await client.refreshTokenGrant(config, refreshToken));
        return { ...tokens, refreshToken: tokens.refreshToken ?? refreshToken };
      } catch (failure) {
        throw providerFailure(failure, 'token refresh');
      }
    },
  };
}

/** Discoveries reads providers' discovery documents, each once per DISCOVERY_CACHE_MS. */
export interface Discoveries {
  discover(url: URL, clientId: string, clientSecret: string): Promise<client.Configuration>;
}

/** createDiscoveries returns a discovery cache keyed by URL and credentials (a changed secret reads anew). */
export function createDiscoveries(now: () => number = Date.now): Discoveries {
  const cache = new Map<string, { config: Promise<client.Configuration>; expires: number }>();
  return {
    discover(url, clientId, clientSecret) {
      const key = sha256Hex(`${url.href}\u0000${clientId}\u0000${clientSecret}`);
      const cached = cache.get(key);
      if (cached && cached.expires > now()) return cached.config;
      for (const [old, entry] of cache) if (entry.expires <= now()) cache.delete(old);
      const config = discover(url, clientId, clientSecret);
      cache.set(key, { config, expires: now() + DISCOVERY_CACHE_MS });
      // A failed read is not kept: the next sign-in tries again.
      config.catch(() => cache.delete(key));
      return config;
    },
  };
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

/** oidcConfiguration builds provider's openid-client configuration from the app's secrets. */
export async function oidcConfiguration(
  provider: Extract<SignInProvider, 'google' | 'sso'>,
  auth: AuthConfig | undefined,
  secret: ReadSecret,
  discoveries: Discoveries,
): Promise<{ config: client.Configuration; scope: string }> {
  const need = requireSecret(secret);
  if (provider === 'google') {
    const clientId = auth?.googleOAuthClientId || (await need('google_oauth_client_id'));
    const discovery = (await secret('google_oauth_discovery_url')) ?? GOOGLE_DISCOVERY_URL;
    const url = secretUrl('google_oauth_discovery_url', discovery);
    return {
      config: await discoveries.discover(url, clientId, await need('google_oauth_client_secret')),
      scope: 'openid email profile',
    };
  }
  const clientId = await need('sso_client_id');
  const clientSecret = await need('sso_client_secret');
  const scope = (await secret('sso_scope'))?.trim() || DEFAULT_SSO_SCOPE;
  const discovery = await secret('sso_discovery_url');
  if (discovery) {
    const url = secretUrl('sso_discovery_url', discovery);
    return { config: await discoveries.discover(url, clientId, clientSecret), scope };
  }
  const authorization = secretUrl('sso_auth_endpoint', await need('sso_auth_endpoint'));
  const issuer = (await secret('sso_issuer')) ?? authorization.origin;
  const metadata: client.ServerMetadata = {
    issuer,
    authorization_endpoint: authorization.href,
    token_endpoint: secretUrl('sso_token_endpoint', await need('sso_token_endpoint')).href,
    userinfo_endpoint: secretUrl('sso_userinfo_endpoint', await need('sso_userinfo_endpoint')).href,
    jwks_uri: secretUrl('sso_jwks_uri', await need('sso_jwks_uri')).href,
  };
  const config = new client.Configuration(metadata, clientId, clientSecret);
  config.timeout = PROVIDER_TIMEOUT_SECONDS;
  if (isLoopbackHttp(authorization)) client.allowInsecureRequests(config);
  return { config, scope };
}
