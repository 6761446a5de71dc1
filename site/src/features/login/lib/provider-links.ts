import { createContext, useContext } from 'react';
import type { SignInProviderId } from '../../../page-contract/page-contract';
import { providerLabel, providerLoginPath } from '../../../lib/provider-sign-in';

// The "Continue with …" links: each goes where the SDK's `loginWithProvider` would send the browser, so the
// server's provider sign-in runs exactly as it does for an app's own button.

/** ProviderSignIn is what the server says about external sign-in (boot data), with the app id. */
export interface ProviderSignIn {
  appId: string;
  providers: readonly SignInProviderId[];
  /** ssoName names the SSO provider (the app secret `sso_name`). */
  ssoName?: string | undefined;
}

/** ProviderLink is one button: its accessible name and where it goes. */
export interface ProviderLink {
  provider: SignInProviderId;
  label: string;
  href: string;
}

/** providerLinks are the page's buttons, each returning to fromUrl (already checked by the caller). */
export function providerLinks(signIn: ProviderSignIn | undefined, fromUrl: string): ProviderLink[] {
  if (!signIn) return [];
  return signIn.providers.map((provider) => ({
    provider,
    label: providerLabel(provider, signIn.ssoName),
    href: providerLoginPath(provider, signIn.appId, fromUrl),
  }));
}

/** ProviderLinksContext carries the buttons to the steps that show them (sign-in, sign-up). */
export const ProviderLinksContext = createContext<readonly ProviderLink[]>([]);

/** useProviderLinks is the page's provider buttons (none: email and password only). */
export const useProviderLinks = (): readonly ProviderLink[] => useContext(ProviderLinksContext);
