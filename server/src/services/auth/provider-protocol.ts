// What the sign-in flow needs from a provider, whatever its protocol (OpenID Connect for Google, Microsoft,
// Apple and SSO; OAuth 2 with a user-info call for GitHub and Facebook): where to send the browser, how to
// turn the callback into an identity and tokens, and how to refresh those tokens later.
import type { ProviderIdentity } from './provider-accounts';

/** ProviderTokens are the provider's own tokens for the person, kept (encrypted) to call it on their behalf. */
export interface ProviderTokens {
  accessToken: string;
  refreshToken?: string | undefined;
  /** expiresAt is when the access token expires, in epoch seconds (absent: the provider did not say). */
  expiresAt?: number | undefined;
  idToken?: string | undefined;
  scope?: string | undefined;
}

/** AuthorizationInput is what the redirect to the provider carries. */
export interface AuthorizationInput {
  redirectUri: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** ExchangeInput is the callback: the URL the provider sent the browser to, and the started sign-in's secrets. */
export interface ExchangeInput {
  /** callbackUrl is our callback URL with the provider's query (code, state, iss…). */
  callbackUrl: URL;
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** Exchanged is who signed in (the email may be missing: the flow refuses then) and their tokens. */
export interface Exchanged {
  identity: Partial<ProviderIdentity> & { emailVerified: boolean };
  tokens: ProviderTokens;
}

/** ProviderProtocol is one provider's side of a sign-in, configured from the app's secrets. */
export interface ProviderProtocol {
  authorizationUrl(input: AuthorizationInput): Promise<URL>;
  /** exchange redeems the code and checks the answer; refusals are UnauthorizedError, outages UpstreamError. */
  exchange(input: ExchangeInput): Promise<Exchanged>;
  /** refresh trades a refresh token for new tokens (the refresh token is kept when none comes back). */
  refresh(refreshToken: string): Promise<ProviderTokens>;
}
