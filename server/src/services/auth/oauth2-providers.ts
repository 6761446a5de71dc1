// GitHub and Facebook: OAuth 2 sign-in (oauth2-protocol.ts) with their endpoints (each replaceable by an app
// secret, for tests and proxies), their scopes, and how each says who signed in and whether it verified
// the email.
import { z } from 'zod';
import { ConflictError } from '../../lib/errors';
import { requireSecret, secretUrl, type ReadSecret } from './oidc-client';
import type { Exchanged, ProviderProtocol } from './provider-protocol';
import { oauth2Protocol, type UserInfoReader } from './oauth2-protocol';

type Identity = Exchanged['identity'];

/** GITHUB_ENDPOINTS are GitHub's, each replaced by the app secret `github_oauth_<name>_url`. */
export const GITHUB_ENDPOINTS = {
  authorize: 'https://github.com/login/oauth/authorize',
  token: 'https://github.com/login/oauth/access_token',
  userinfo: 'https://api.github.com/user',
  emails: 'https://api.github.com/user/emails',
};
/** FACEBOOK_ENDPOINTS are Facebook's, each replaced by the app secret `facebook_oauth_<name>_url`. */
export const FACEBOOK_ENDPOINTS = {
  authorize: 'https://www.facebook.com/v19.0/dialog/oauth',
  token: 'https://graph.facebook.com/v19.0/oauth/access_token',
  userinfo: 'https://graph.facebook.com/v19.0/me?fields=id,name,email',
};

const GitHubUserSchema = z.object({
  login: z.string().max(200).optional(),
  name: z.string().max(500).nullish(),
  email: z.string().max(320).nullish(),
});
const GitHubEmailsSchema = z
  .array(
    z.object({
      email: z.string().max(320),
      primary: z.boolean().optional(),
      verified: z.boolean().optional(),
    }),
  )
  .max(1000);
const FacebookUserSchema = z.object({
  id: z.string().max(100),
  name: z.string().max(500).optional(),
  email: z.string().max(320).optional(),
});

export type GitHubEmails = z.infer<typeof GitHubEmailsSchema>;

/**
 * githubEmail chooses the email of a GitHub sign-in: the primary entry of `/user/emails`, verified only when
 * GitHub says so; without one (no `user:email` grant), `/user`'s public email, never counted as verified
 * (GitHub does not say whether a public email was confirmed).
 */
export function githubEmail(
  emails: GitHubEmails | null,
  publicEmail: string | null | undefined,
): { email?: string; emailVerified: boolean } {
  const primary = emails?.find((entry) => entry.primary === true);
  if (primary) return { email: primary.email, emailVerified: primary.verified === true };
  return { email: publicEmail ?? undefined, emailVerified: false };
}

/** endpoint reads provider's endpoint name from its app secret, else the default. */
async function endpoint(secret: ReadSecret, provider: string, name: string, fallback: string): Promise<URL> {
  const secretName = `${provider}_oauth_${name}_url`;
  return secretUrl(secretName, (await secret(secretName)) ?? fallback);
}

/** githubProtocol signs in with GitHub (an OAuth app, or a GitHub app whose tokens expire and refresh). */
export async function githubProtocol(secret: ReadSecret): Promise<ProviderProtocol> {
  const need = requireSecret(secret);
  const clientId = await need('github_oauth_client_id');
  const clientSecret = await need('github_oauth_client_secret');
  const userinfo = await endpoint(secret, 'github', 'userinfo', GITHUB_ENDPOINTS.userinfo);
  const emails = await endpoint(secret, 'github', 'emails', GITHUB_ENDPOINTS.emails);
  return oauth2Protocol({
    endpoints: {
      authorize: await endpoint(secret, 'github', 'authorize', GITHUB_ENDPOINTS.authorize),
      token: await endpoint(secret, 'github', 'token', GITHUB_ENDPOINTS.token),
    },
    clientId,
    clientSecret,
    scope: 'read:user user:email',
    errorsWith200: true,
    async identify(read: UserInfoReader): Promise<Identity> {
      const user = await read(userinfo, GitHubUserSchema);
      const chosen = githubEmail(await read(emails, GitHubEmailsSchema), user?.email);
      return { ...chosen, name: user?.name ?? user?.login };
    },
  });
}

/** facebookProtocol signs in with Facebook (Facebook Login: no refresh tokens). */
export async function facebookProtocol(secret: ReadSecret): Promise<ProviderProtocol> {
  const need = requireSecret(secret);
  const clientId = await need('facebook_oauth_client_id');
  const clientSecret = await need('facebook_oauth_client_secret');
  const userinfo = await endpoint(secret, 'facebook', 'userinfo', FACEBOOK_ENDPOINTS.userinfo);
  return oauth2Protocol({
    endpoints: {
      authorize: await endpoint(secret, 'facebook', 'authorize', FACEBOOK_ENDPOINTS.authorize),
      token: await endpoint(secret, 'facebook', 'token', FACEBOOK_ENDPOINTS.token),
    },
    clientId,
    clientSecret,
    scope: 'email public_profile',
    async identify(read: UserInfoReader): Promise<Identity> {
      const user = await read(userinfo, FacebookUserSchema);
      // Facebook returns `email` only once the person confirmed it (its Graph API documents the field as the
      // primary, confirmed address; an unconfirmed one is left out): it counts as verified.
      return { email: user?.email, emailVerified: typeof user?.email === 'string', name: user?.name };
    },
    refresh() {
      // Facebook issues long-lived access tokens and no refresh tokens.
      return Promise.reject(
        new ConflictError('Facebook tokens cannot be refreshed: the user must sign in with Facebook again'),
      );
    },
  });
}
