// An external sign-in from start to end: `start` seals the state and sends the browser to the provider with
// PKCE, state and nonce; `finish` takes the state back once, lets openid-client exchange the code and check
// the ID token, reads the email and whether the provider verified it, and lands on the app user.
import * as client from 'openid-client';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '../../lib/errors';
import type { AuthConfig } from '../../schemas/auth-config';
import type { AuthThrottle } from './auth-throttle';
import { OIDC_PROVIDERS, oidcClient, providerFailure, type ReadSecret } from './oidc-client';
import type { ProviderAccounts } from './provider-accounts';
import { StateRefusedError, type SignInStates } from './sign-in-state';
import { enabledProviders, type SignInProvider } from './sign-in-providers';

/** ProviderSignInDeps are the app, its auth config and secrets, the states, the accounts and the throttle. */
export interface ProviderSignInServiceDeps {
  appId: string;
  auth: AuthConfig | undefined;
  secret: ReadSecret;
  states: SignInStates;
  accounts: ProviderAccounts;
  throttle: AuthThrottle;
}

/** StartInput is a validated login request: the return target and popup origin are already allowed. */
export interface StartInput {
  provider: string;
  fromUrl: string;
  popupOrigin?: string | undefined;
  /** callbackUrl is `{our origin}/api/apps/auth/callback`, the redirect URI registered with the provider. */
  callbackUrl: string;
  ip: string;
}

/** FinishInput is the callback's query, our cookie and the callback URL it was sent to. */
export interface FinishInput {
  query: URLSearchParams;
  cookie: string | undefined;
  callbackUrl: string;
  ip: string;
}

/** Finished is where to send the browser and what to tell the app. */
export interface Finished {
  fromUrl: string;
  popupOrigin?: string | undefined;
  accessToken: string;
  isNewUser: boolean;
}

/** ProviderSignInService runs the external sign-in flow. */
export interface ProviderSignInService {
  /** offers says whether provider is enabled here and served by this flow. */
  offers(provider: string): provider is SignInProvider;
  /** notYet says whether provider is enabled but not served by this server yet (Microsoft, Apple, GitHub…). */
  notYet(provider: string): boolean;
  start(input: StartInput): Promise<{ location: string; cookie: string }>;
  finish(input: FinishInput): Promise<Finished>;
}

/** createProviderSignInService returns the external sign-in flow for the app. */
export function createProviderSignInService(deps: ProviderSignInServiceDeps): ProviderSignInService {
  const enabled = new Set<string>(deps.auth ? enabledProviders(deps.auth) : []);
  const offers = (provider: string): provider is SignInProvider =>
    enabled.has(provider) && (OIDC_PROVIDERS as readonly string[]).includes(provider);

  return {
    offers,
    notYet: (provider) => enabled.has(provider) && !offers(provider),
    async start(input) {
      await deps.throttle('provider-sign-in', input.ip);
      if (!offers(input.provider))
        throw new NotFoundError(`Sign-in with ${input.provider} is not enabled for this app`);
      const { config, scope } = await oidcClient(input.provider, deps.auth, deps.secret);
      const codeVerifier = client.randomPKCECodeVerifier();
      const nonce = client.randomNonce();
      const { state, cookie } = deps.states.issue({
        app_id: deps.appId,
        provider: input.provider,
        from_url: input.fromUrl,
        ...(input.popupOrigin ? { popup_origin: input.popupOrigin } : {}),
        code_verifier: codeVerifier,
        nonce,
      });
      const location = client.buildAuthorizationUrl(config, {
        redirect_uri: input.callbackUrl,
        scope,
        state,
        nonce,
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
      });
      return { location: location.href, cookie };
    },

    async finish(input) {
      await deps.throttle('provider-sign-in', input.ip);
      const sealed = input.query.get('state');
      // No state: not an answer to a sign-in this browser started (or a provider that dropped it).
      if (!sealed) {
        throw new StateRefusedError(
          'The sign-in answer carries no state: start signing in again',
          'invalid_state',
        );
      }
      const state = await deps.states.take(sealed, input.cookie);
      const error = input.query.get('error');
      if (error === 'access_denied') {
        throw new ForbiddenError(
          'Sign-in was cancelled at the provider: nothing was changed',
          'access_denied',
        );
      }
      if (error)
        throw new UnauthorizedError(
          `The provider refused the sign-in (${error.slice(0, 100)})`,
          'provider_refused',
        );
      if (!offers(state.provider))
        throw new NotFoundError(`Sign-in with ${state.provider} is not enabled for this app`);
      const { config } = await oidcClient(state.provider, deps.auth, deps.secret);
      const current = new URL(input.callbackUrl);
      current.search = input.query.toString();
      let email: unknown;
      let emailVerified: unknown;
      let name: unknown;
      try {
        const tokens = await client.authorizationCodeGrant(config, current, {
          pkceCodeVerifier: state.code_verifier,
          expectedNonce: state.nonce,
          expectedState: sealed,
          idTokenExpected: true,
        });
        const claims = tokens.claims();
        if (!claims) throw new UnauthorizedError('The provider sent no ID token', 'provider_refused');
        ({ email, email_verified: emailVerified, name } = claims);
        // Many providers put the email in the user info only (scope `email` without ID token claims).
        if (typeof email !== 'string') {
          const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
          ({ email, email_verified: emailVerified, name } = info);
        }
      } catch (failure) {
        if (failure instanceof UnauthorizedError) throw failure;
        throw providerFailure(failure, 'code exchange');
      }
      if (typeof email !== 'string' || !email.includes('@')) {
        throw new ForbiddenError(
          'The provider did not share an email address: allow it and sign in again',
          'no_email',
        );
      }
      const signedIn = await deps.accounts.signIn(deps.appId, {
        email: email.trim().toLowerCase(),
        emailVerified: emailVerified === true || emailVerified === 'true',
        name: typeof name === 'string' ? name.slice(0, 200) : undefined,
      });
      return { fromUrl: state.from_url, popupOrigin: state.popup_origin, ...signedIn };
    },
  };
}
