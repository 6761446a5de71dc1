// What the sign-in page is told about external sign-in (its boot data): the providers the app's
// `auth/config.jsonc` enables, and the SSO provider's name from the app secret `sso_name`, read at each
// page view so a changed secret shows without a restart.
import { SSO_NAME_MAX_LENGTH } from '../../../../site/src/page-contract/page-contract';
import type { SignInChoices } from '../../routes/site';
import type { AuthConfig } from '../../schemas/auth-config';
import { enabledProviders } from '../../services/auth/sign-in-providers';

/** SSO_NAME_SECRET is the app secret naming the SSO provider on its button ("Continue with Okta"). */
export const SSO_NAME_SECRET = 'sso_name';

/**
 * signInChoicesFor answers the page's providers and SSO name; undefined when no provider is enabled (the
 * page is then email and password only). A secret that cannot be read (database restarting) only loses the
 * name: the SSO button says "single sign-on" instead.
 */
export function signInChoicesFor(
  auth: AuthConfig | undefined,
  secret: (name: string) => Promise<string | undefined>,
): (() => Promise<SignInChoices>) | undefined {
  const providers = auth ? enabledProviders(auth) : [];
  if (providers.length === 0) return undefined;
  return async () => {
    if (!providers.includes('sso')) return { signInProviders: providers };
    const name = (await secret(SSO_NAME_SECRET).catch(() => undefined))?.trim() ?? '';
    return {
      signInProviders: providers,
      ...(name && name.length <= SSO_NAME_MAX_LENGTH ? { ssoName: name } : {}),
    };
  };
}
