// The tokens an external sign-in provider gave for a user, kept so backend code can call the provider on the
// user's behalf (`asServiceRole.sso.getAccessToken`). They are sealed with the secrets key, bound to the user
// and provider (a sealed value copied to another row fails to open), and refreshed when they expire, one
// refresh per user at a time on this instance.
import { z } from 'zod';
import { ConflictError, UnauthorizedError } from '../../lib/errors';
import { openSecret, sealSecret } from '../../lib/secret-box';
import type { ProviderTokensStore } from '../../store/provider-tokens-store';
import type { ProviderTokens } from './provider-protocol';
import type { ProviderProtocols } from './provider-protocols';

/** REFRESH_MARGIN_SECONDS renews a token this close to its expiry, so the caller gets time to use it. */
export const REFRESH_MARGIN_SECONDS = 60;

const TokensSchema = z.object({
  accessToken: z.string(),
  refreshToken: z.string().optional(),
  expiresAt: z.number().optional(),
  idToken: z.string().optional(),
  scope: z.string().optional(),
});

/** ProviderTokenVault keeps and hands out users' provider tokens. */
export interface ProviderTokenVault {
  save(appId: string, userId: string, provider: string, tokens: ProviderTokens): Promise<void>;
  /**
   * accessToken returns a provider access token for the user that is valid now (from SSO when the user has
   * signed in with it, else from the provider used last), refreshed first when expired; null when the user
   * never signed in with a provider.
   */
  accessToken(appId: string, userId: string): Promise<string | null>;
}

/** ProviderTokenVaultDeps are the secrets key, the store, the protocols (for refresh) and the clock. */
export interface ProviderTokenVaultDeps {
  key: Buffer;
  store: ProviderTokensStore;
  protocols: ProviderProtocols;
  now?: () => number;
}

/** createProviderTokenVault returns the vault. */
export function createProviderTokenVault(deps: ProviderTokenVaultDeps): ProviderTokenVault {
  const now = deps.now ?? Date.now;
  const owner = (appId: string, userId: string, provider: string) => [
    'provider-tokens',
    appId,
    userId,
    provider,
  ];
  const refreshing = new Map<string, Promise<string>>();

  async function save(appId: string, userId: string, provider: string, tokens: ProviderTokens) {
    // Only what is set: a JSON `undefined` would not survive the schema on the way back.
    const kept = Object.fromEntries(Object.entries(tokens).filter(([, value]) => value !== undefined));
    const sealed = sealSecret(deps.key, owner(appId, userId, provider), JSON.stringify(kept));
    const expiresAt = tokens.expiresAt === undefined ? null : new Date(tokens.expiresAt * 1000);
    await deps.store.put(userId, provider, sealed, expiresAt);
  }

  async function refresh(appId: string, userId: string, provider: string, tokens: ProviderTokens) {
    if (!tokens.refreshToken || !deps.protocols.serves(provider)) {
      throw new ConflictError(
        "The user's provider access token has expired and the provider gave no refresh token: the user must sign in with the provider again",
      );
    }
    const protocol = await deps.protocols.protocolFor(provider);
    let fresh: ProviderTokens;
    try {
      fresh = await protocol.refresh(tokens.refreshToken);
    } catch (error) {
      if (!(error instanceof UnauthorizedError)) throw error;
      throw new ConflictError(
        "The provider no longer accepts the user's refresh token: the user must sign in with the provider again",
      );
    }
    await save(appId, userId, provider, { ...fresh, idToken: fresh.idToken ?? tokens.idToken });
    return fresh.accessToken;
  }

  return {
    save,
    async accessToken(appId, userId) {
      const row = await deps.store.latest(userId);
      if (!row) return null;
      const tokens = TokensSchema.parse(
        JSON.parse(openSecret(deps.key, owner(appId, userId, row.provider), row.sealed)),
      );
      const fresh =
        tokens.expiresAt === undefined || tokens.expiresAt - REFRESH_MARGIN_SECONDS > now() / 1000;
      if (fresh) return tokens.accessToken;
      const key = `${userId}\u0000${row.provider}`;
      const running = refreshing.get(key);
      if (running) return running;
      const started = refresh(appId, userId, row.provider, tokens).finally(() => refreshing.delete(key));
      refreshing.set(key, started);
      return started;
    },
  };
}
