// The OAuth 2 side of a sign-in for providers without OpenID Connect (GitHub, Facebook): openid-client's
// authorization code grant (PKCE S256 and state, no ID token), then the provider's user-info calls, read
// with a bounded body and checked with zod. Every call has PROVIDER_TIMEOUT_SECONDS.
import * as client from 'openid-client';
import type { z } from 'zod';
import { UpstreamError } from '../../lib/errors';
import { isLoopbackHttp, PROVIDER_TIMEOUT_SECONDS, providerFailure, tokensOf } from './oidc-client';
import type { Exchanged, ProviderProtocol, ProviderTokens } from './provider-protocol';

/** USER_INFO_LIMIT bounds a user-info body: a profile is a few KB, more is not a profile. */
export const USER_INFO_LIMIT = 256 * 1024;

/** OAuth2Endpoints are where a provider authorizes and issues tokens. */
export interface OAuth2Endpoints {
  authorize: URL;
  token: URL;
}

/** UserInfoReader reads a JSON resource with the person's access token (`null`: a 403 or 404). */
export type UserInfoReader = <T>(url: URL, schema: z.ZodType<T>) => Promise<T | null>;

/** OAuth2Provider is one provider's endpoints, scope and how it says who signed in. */
export interface OAuth2Provider {
  endpoints: OAuth2Endpoints;
  clientId: string;
  clientSecret: string;
  scope: string;
  identify(read: UserInfoReader): Promise<Exchanged['identity']>;
  /** errorsWith200 says the token endpoint answers a refusal with 200 and an `error` body (GitHub). */
  errorsWith200?: boolean;
  /** refresh replaces the refresh grant (Facebook has none); absent: the standard refresh grant. */
  refresh?: (refreshToken: string) => Promise<ProviderTokens>;
}

/** oauth2Configuration is openid-client's configuration for provider (no issuer: there is no ID token). */
export function oauth2Configuration(provider: OAuth2Provider): client.Configuration {
  const { authorize, token } = provider.endpoints;
  const config = new client.Configuration(
    { issuer: authorize.origin, authorization_endpoint: authorize.href, token_endpoint: token.href },
    provider.clientId,
    undefined,
    client.ClientSecretPost(provider.clientSecret),
  );
  config.timeout = PROVIDER_TIMEOUT_SECONDS;
  if (isLoopbackHttp(authorize) || isLoopbackHttp(token)) client.allowInsecureRequests(config);
  if (provider.errorsWith200) config[client.customFetch] = refusalsAs400(token.href);
  return config;
}

/**
 * refusalsAs400 fetches as usual, but a token endpoint's 200 whose body is an OAuth `error` (GitHub's way
 * of refusing a code) becomes a 400, so openid-client reports the refusal (401) rather than a malformed
 * answer. Only the status changes; openid-client still reads and checks the body.
 */
function refusalsAs400(tokenEndpoint: string): client.CustomFetch {
  return async (url, options) => {
    const response = await fetch(url, options);
    if (url !== tokenEndpoint || response.status !== 200) return response;
    const text = await response.text();
    let refused = false;
    try {
      refused = typeof (JSON.parse(text) as { error?: unknown }).error === 'string';
    } catch {
      // Not JSON: openid-client says so.
    }
    return new Response(text, { status: refused ? 400 : 200, headers: response.headers });
  };
}

/** readBounded reads at most limit bytes of a body, or throws UpstreamError. */
async function readBounded(response: Response, limit: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new UpstreamError(`The sign-in provider's user info is larger than ${limit} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function userInfoReader(config: client.Configuration, accessToken: string): UserInfoReader {
  return async (url, schema) => {
    // GitHub's API refuses requests without a User-Agent; both read JSON.
    const headers = new Headers({ accept: 'application/json', 'user-agent': 'queen-sign-in' });
    const response = await client.fetchProtectedResource(config, accessToken, url, 'GET', undefined, headers);
    if (response.status === 403 || response.status === 404) {
      await response.body?.cancel();
      return null;
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new UpstreamError(`The sign-in provider's user info answered ${response.status}`);
    }
    let body: unknown;
    try {
      body = JSON.parse(await readBounded(response, USER_INFO_LIMIT));
    } catch (error) {
      if (error instanceof UpstreamError) throw error;
      throw new UpstreamError("The sign-in provider's user info is not JSON");
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw new UpstreamError("The sign-in provider's user info has an unexpected shape");
    return parsed.data;
  };
}

/** oauth2Protocol is provider's side of a sign-in: OAuth 2 with PKCE and state, then its user info. */
export function oauth2Protocol(provider: OAuth2Provider): ProviderProtocol {
  const config = oauth2Configuration(provider);
  return {
    async authorizationUrl({ redirectUri, state, codeVerifier }) {
      return client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: provider.scope,
        state,
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
      });
    },
    async exchange({ callbackUrl, state, codeVerifier }) {
      try {
        const response = await client.authorizationCodeGrant(config, callbackUrl, {
          pkceCodeVerifier: codeVerifier,
          expectedState: state,
          idTokenExpected: false,
        });
        const identity = await provider.identify(userInfoReader(config, response.access_token));
        return { identity, tokens: tokensOf(response) };
      } catch (failure) {
        throw providerFailure(failure, 'code exchange');
      }
    },
    async refresh(refreshToken) {
      if (provider.refresh) return provider.refresh(refreshToken);
      try {
        const tokens = tokensOf(await client.refreshTokenGrant(config, refreshToken));
        return { ...tokens, refreshToken: tokens.refreshToken ?? refreshToken };
      } catch (failure) {
        throw providerFailure(failure, 'token refresh');
      }
    },
  };
}
