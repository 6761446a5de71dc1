// An external sign-in from start to end: `start` seals the state and sends the browser to the provider with
// PKCE, state and nonce; `finish` takes the state back once, lets openid-client exchange the code and check
// the ID token, reads the email and whether the provider verified it, and lands on the app user.
import { randomNonce, randomPKCECodeVerifier } from 'openid-client';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '../../lib/errors';
import type { AuthConfig } from '../../schemas/auth-config';
import type { AuthThrottle } from './auth-throttle';
import type { ProviderAccounts } from './provider-accounts';
import type { ProviderProtocols } from './provider-protocols';
import type { ProviderTokenVault } from './provider-token-vault';
import { StateRefusedError, type SignInStates } from './sign-in-state';
import { enabledProviders, type SignInProvider } from './sign-in-providers';

/** ProviderSignInDeps are the app, its auth config and secrets, the states, the accounts and the throttle. */
export interface ProviderSignInServiceDeps {
  appId: string;
  auth: AuthConfig | undefined;
  protocols: ProviderProtocols;
  states: SignInStates;
  accounts: ProviderAccounts;
  /** vault keeps the provider's tokens for the user, encrypted. */
  vault: ProviderTokenVault;
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
  start(input: StartInput): Promise<{ location: string; cookie: string }>;
  finish(input: FinishInput): Promise<Finished>;
}

/** createProviderSignInService returns the external sign-in flow for the app. */
export function createProviderSignInService(deps: ProviderSignInServiceDeps): ProviderSignInService {
  const enabled = new Set<string>(deps.auth ? enabledProviders(deps.auth) : []);
  const offers = (provider: string): provider is SignInProvider =>
    enabled.has(provider) && deps.protocols.serves(provider);

  return {
    offers,
    async start(input) {
      await deps.throttle('provider-sign-in', input.ip);
      if (!offers(input.provider))
        throw new NotFoundError(`Sign-in with ${input.provider} is not enabled for this app`);
      const protocol = await deps.protocols.protocolFor(input.provider);
      const codeVerifier = randomPKCECodeVerifier();
      const nonce = randomNonce();
      const { state, cookie } = deps.states.issue({
        app_id: deps.appId,
        provider: input.provider,
        from_url: input.fromUrl,
        ...(input.popupOrigin ? { popup_origin: input.popupOrigin } : {}),
        code_verifier: codeVerifier,
        nonce,
      });
      const location = await protocol.authorizationUrl({
        redirectUri: input.callbackUrl,
        state,
        nonce,
        codeVerifier,
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
      const protocol = await deps.protocols.protocolFor(state.provider);
      const current = new URL(input.callbackUrl);
      current.search = input.query.toString();
      const { identity, tokens } = await protocol.exchange({
        callbackUrl: current,
        state: sealed,
        nonce: state.nonce,
        codeVerifier: state.code_verifier,
      });
      const { email } = identity;
      if (typeof email !== 'string' || !email.includes('@')) {
        throw new ForbiddenError(
          'The provider did not share an email address: allow it and sign in again',
          'no_email',
        );
      }
      const { userId, ...signedIn } = await deps.accounts.signIn(deps.appId, {
        email: email.trim().toLowerCase(),
        emailVerified: identity.emailVerified,
        name: identity.name?.slice(0, 200),
      });
      await deps.vault.save(deps.appId, userId, state.provider, tokens);
      return { fromUrl: state.from_url, popupOrigin: state.popup_origin, ...signedIn };
    },
  };
}
