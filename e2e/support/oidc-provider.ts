import type { Server } from 'node:http';
import Provider from 'oidc-provider';
import { freePort } from './server-process';

// A real OpenID Connect provider (panva's certified `oidc-provider`) run in-process on a free port, with one
// client whose redirect URI is our server's callback, and accounts whose email and email_verified the test
// sets. Its dev login form (POST `/interaction/:uid`, any password) signs an account in; consent is granted
// already, so a sign-in is: our login route → provider → form → our callback.

/** TestAccount is what the provider says about a person: their email and whether it verified it. */
export interface TestAccount {
  email: string;
  email_verified: boolean;
  name?: string;
}

/** TestProvider is a running provider and the accounts it knows (add more while it runs). */
export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  accounts: Map<string, TestAccount>;
  /** accessTokenTtlSeconds is the lifetime of the access tokens issued from now on (default an hour). */
  accessTokenTtlSeconds: number;
  /** refuseTokens makes the token endpoint answer `invalid_grant` to everything (a revoked refresh token). */
  refuseTokens: boolean;
  /** refreshes counts refresh-token grants the provider answered. */
  readonly refreshes: number;
  /** userinfo asks the provider's user-info endpoint about accessToken: its email, or null if refused. */
  userinfo(accessToken: string): Promise<string | null>;
  close(): Promise<void>;
}

/**
 * startOidcProvider starts a provider on port (default a free one) whose one client redirects to callbackUrl
 * (or any of several).
 * Pick the port first (freePort) when the server must know the provider's URL before it starts.
 */
export async function startOidcProvider(
  callbackUrl: string | string[],
  port?: number,
): Promise<TestProvider> {
  port ??= await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const accounts = new Map<string, TestAccount>();
  const state = { accessTokenTtlSeconds: 3600, refreshes: 0, refuseTokens: false };
  const clientId = 'queen-test-client';
  const clientSecret = 'queen-test-client-secret-0123456789';
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: Array.isArray(callbackUrl) ? callbackUrl : [callbackUrl],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
      },
    ],
    async findAccount(_ctx, sub) {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return { accountId: sub, claims: () => Promise.resolve({ sub, ...account }) };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    pkce: { required: () => true },
    // Every code comes with a refresh token (no `offline_access` consent step to drive).
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    ttl: { AccessToken: () => state.accessTokenTtlSeconds },
    features: { devInteractions: { enabled: true }, revocation: { enabled: true } },
    // Consent is given already: the test drives the login form only.
    async loadExistingGrant(ctx) {
      const clientId = ctx.oidc.client?.clientId;
      const accountId = ctx.oidc.session?.accountId;
      if (!clientId || !accountId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId, accountId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
    cookies: { keys: ['queen-test-cookie-key-0123456789'] },
  });
  provider.use(async (ctx, next) => {
    if (state.refuseTokens && ctx.path === '/token') {
      ctx.status = 400;
      ctx.body = { error: 'invalid_grant', error_description: 'refused by the test' };
      return;
    }
    await next();
  });
  provider.on('grant.success', (ctx) => {
    const params = (ctx as { oidc?: { params?: { grant_type?: unknown } } }).oidc?.params;
    if (params?.grant_type === 'refresh_token') state.refreshes += 1;
  });
  const server: Server = provider.listen(port, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    get accessTokenTtlSeconds() {
      return state.accessTokenTtlSeconds;
    },
    set accessTokenTtlSeconds(seconds: number) {
      state.accessTokenTtlSeconds = seconds;
    },
    get refuseTokens() {
      return state.refuseTokens;
    },
    set refuseTokens(refuse: boolean) {
      state.refuseTokens = refuse;
    },
    get refreshes() {
      return state.refreshes;
    },
    async userinfo(accessToken) {
      const response = await fetch(`${issuer}/me`, { headers: { authorization: `Bearer ${accessToken}` } });
      if (!response.ok) return null;
      return ((await response.json()) as { email?: string }).email ?? null;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
