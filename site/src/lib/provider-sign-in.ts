import type { SignInProviderId } from '../page-contract/page-contract';

// What every "Continue with …" button needs, on the sign-in page and in the console: its text, and the
// SDK's login route for the provider, so the server's provider sign-in runs as it does for an app's button.

const NAMES: Record<Exclude<SignInProviderId, 'sso'>, string> = {
  google: 'Google',
  microsoft: 'Microsoft',
  github: 'GitHub',
  facebook: 'Facebook',
  apple: 'Apple',
};

/** providerLabel is the button's text: "Continue with Google", the SSO name, or "single sign-on". */
export function providerLabel(provider: SignInProviderId, ssoName?: string): string {
  if (provider === 'sso') return `Continue with ${ssoName || 'single sign-on'}`;
  return `Continue with ${NAMES[provider]}`;
}

/**
 * providerLoginPath is the SDK's login route for provider (Google: `/api/apps/auth/login`, SSO:
 * `/api/apps/{appId}/auth/sso/login`, others `/api/apps/auth/{provider}/login`), returning to fromUrl.
 */
export function providerLoginPath(provider: SignInProviderId, appId: string, fromUrl: string): string {
  const query = new URLSearchParams({ app_id: appId, from_url: fromUrl });
  if (provider === 'sso') return `/api/apps/${encodeURIComponent(appId)}/auth/sso/login?${query}`;
  const segment = provider === 'google' ? '' : `/${provider}`;
  return `/api/apps/auth${segment}/login?${query}`;
}
