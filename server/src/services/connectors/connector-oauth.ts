// A connector's OAuth 2 calls through openid-client: the authorize URL (PKCE S256, state, the declared
// scopes), the code exchange, the refresh and the revocation (RFC 7009). A provider that refuses is told
// apart from one that fails or stays silent (10 s), since the first breaks the connection and the second
// keeps it.
import * as client from 'openid-client';
import { isLoopbackHttp, PROVIDER_TIMEOUT_SECONDS, secretUrl } from '../auth/oidc-client';
import type { ConnectorSettings } from './connector-settings';
import { ConnectorError } from './connector-errors';

/** ConnectorTokens are a connection's tokens and the provider's extra fields (`connection_config`). */
export interface ConnectorTokens {
  accessToken: string;
  refreshToken?: string | undefined;
  /** expiresAt is in epoch seconds (absent: the provider did not say). */
  expiresAt?: number | undefined;
  scope?: string | undefined;
  connectionConfig: Record<string, string> | null;
}

/** STANDARD_FIELDS are the token answer's fields that are not `connection_config`. */
const STANDARD_FIELDS = new Set([
  'access_token',
  'token_type',
  'expires_in',
  'refresh_token',
  'scope',
  'id_token',
]);
/** MAX_CONFIG_FIELDS and MAX_CONFIG_CHARS bound what of a token answer is kept as connection_config. */
const MAX_CONFIG_FIELDS = 20;
const MAX_CONFIG_CHARS = 2000;

function configurationOf(settings: ConnectorSettings): client.Configuration {
  const authorize = secretUrl(`${settings.type}_oauth_authorize_url`, settings.authorizeUrl);
  const token = secretUrl(`${settings.type}_oauth_token_url`, settings.tokenUrl);
  const revoke = settings.revokeUrl
    ? secretUrl(`${settings.type}_oauth_revoke_url`, settings.revokeUrl)
    : undefined;
  const config = new client.Configuration(
    {
      issuer: authorize.origin,
      authorization_endpoint: authorize.href,
      token_endpoint: token.href,
      ...(revoke ? { revocation_endpoint: revoke.href } : {}),
    },
    settings.clientId,
    undefined,
    settings.tokenAuth === 'basic'
      ? client.ClientSecretBasic(settings.clientSecret)
      : client.ClientSecretPost(settings.clientSecret),
  );
  config.timeout = PROVIDER_TIMEOUT_SECONDS;
  if (isLoopbackHttp(authorize) || isLoopbackHttp(token)) client.allowInsecureRequests(config);
  return config;
}

function connectionConfigOf(response: Record<string, unknown>): Record<string, string> | null {
  const extra = Object.entries(response)
    .filter(([name, value]) => !STANDARD_FIELDS.has(name) && typeof value === 'string')
    .filter(([, value]) => (value as string).length <= MAX_CONFIG_CHARS)
    .slice(0, MAX_CONFIG_FIELDS);
  return extra.length > 0 ? (Object.fromEntries(extra) as Record<string, string>) : null;
}

function tokensOf(
  response: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers,
): ConnectorTokens {
  const expiresIn = response.expiresIn();
  return {
    accessToken: response.access_token,
    refreshToken: response.refresh_token,
    expiresAt: expiresIn === undefined ? undefined : Math.floor(Date.now() / 1000) + expiresIn,
    scope: response.scope,
    connectionConfig: connectionConfigOf(response as unknown as Record<string, unknown>),
  };
}

/** failureOf tells a refusal (the provider answered with an OAuth error) from an outage. */
function failureOf(error: unknown, type: string, step: string): ConnectorError {
  if (error instanceof ConnectorError) return error;
  if (error instanceof client.ResponseBodyError || error instanceof client.AuthorizationResponseError) {
    return new ConnectorError(
      'connector_reauthorization_required',
      `${type} refused the ${step} (${error.error}): connect it again`,
    );
  }
  return new ConnectorError(
    'connector_provider_unavailable',
    `${type}'s token endpoint failed or did not answer within ${PROVIDER_TIMEOUT_SECONDS} s (${step}): try again later`,
  );
}

/** authorizeUrl is where the browser goes to grant the connector its scopes. */
export async function authorizeUrl(
  settings: ConnectorSettings,
  input: { redirectUri: string; state: string; codeVerifier: string; scopes: readonly string[] },
): Promise<string> {
  const url = client.buildAuthorizationUrl(configurationOf(settings), {
    ...settings.authorizeParams,
    redirect_uri: input.redirectUri,
    state: input.state,
    code_challenge: await client.calculatePKCECodeChallenge(input.codeVerifier),
    code_challenge_method: 'S256',
    ...(input.scopes.length > 0 ? { scope: input.scopes.join(' ') } : {}),
  });
  return url.href;
}

/** exchangeCode redeems the callback's code (callbackUrl holds the provider's query). */
export async function exchangeCode(
  settings: ConnectorSettings,
  callbackUrl: URL,
  checks: { codeVerifier: string; state: string },
): Promise<ConnectorTokens> {
  try {
    const response = await client.authorizationCodeGrant(configurationOf(settings), callbackUrl, {
      pkceCodeVerifier: checks.codeVerifier,
      expectedState: checks.state,
      idTokenExpected: false,
    });
    return tokensOf(response);
  } catch (error) {
    throw failureOf(error, settings.type, 'code exchange');
  }
}

/** refreshTokens trades a refresh token for new tokens; the old refresh token stays unless rotated. */
export async function refreshTokens(
  settings: ConnectorSettings,
  refreshToken: string,
): Promise<ConnectorTokens> {
  try {
    const tokens = tokensOf(await client.refreshTokenGrant(configurationOf(settings), refreshToken));
    return { ...tokens, refreshToken: tokens.refreshToken ?? refreshToken };
  } catch (error) {
    throw failureOf(error, settings.type, 'token refresh');
  }
}

/** revokeToken asks the provider to revoke token (RFC 7009) when it has a revocation endpoint. */
export async function revokeToken(settings: ConnectorSettings, token: string): Promise<boolean> {
  if (!settings.revokeUrl) return false;
  await client.tokenRevocation(configurationOf(settings), token);
  return true;
}
