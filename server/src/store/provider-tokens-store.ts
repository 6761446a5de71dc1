import type { Queryable } from './database';

/** SealedProviderTokensRow is one provider's sealed tokens for a user. */
export interface SealedProviderTokensRow {
  provider: string;
  sealed: string;
}

/** ProviderTokensStore is the SQL for the tokens external sign-in providers gave (values arrive sealed). */
export type ProviderTokensStore = ReturnType<typeof createProviderTokensStore>;

/** createProviderTokensStore returns the SQL for provider tokens. */
export function createProviderTokensStore(db: Queryable) {
  return {
    /** put stores provider's sealed tokens for userId, replacing earlier ones. */
    async put(userId: string, provider: string, sealed: string, expiresAt: Date | null): Promise<void> {
      await db.query(
        `INSERT INTO provider_tokens (user_id, provider, sealed, expires_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (user_id, provider)
         DO UPDATE SET sealed = EXCLUDED.sealed, expires_at = EXCLUDED.expires_at, updated_at = now()`,
        [userId, provider, sealed, expiresAt],
      );
    },
    /** latest returns userId's tokens from SSO if it has them, else from the provider used last, or null. */
    async latest(userId: string): Promise<SealedProviderTokensRow | null> {
      const { rows } = await db.query<SealedProviderTokensRow>(
        `SELECT provider, sealed FROM provider_tokens WHERE user_id = $1
         ORDER BY (provider = 'sso') DESC, updated_at DESC LIMIT 1`,
        [userId],
      );
      return rows[0] ?? null;
    },
  };
}
