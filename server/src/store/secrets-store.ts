import type { Queryable } from './database';

/** SealedSecretRow is one stored secret: its name and its encrypted value. */
export interface SealedSecretRow {
  name: string;
  sealed: string;
}

/** createSecretsStore returns the SQL for app secrets (values arrive and leave sealed). */
export function createSecretsStore(db: Queryable) {
  return {
    /** list returns every sealed secret of appId, by name. */
    async list(appId: string): Promise<SealedSecretRow[]> {
      const { rows } = await db.query<SealedSecretRow>(
        'SELECT name, sealed FROM app_secrets WHERE app_id = $1 ORDER BY name',
        [appId],
      );
      return rows;
    },
    /** names returns the names of appId's secrets, sorted. */
    async names(appId: string): Promise<string[]> {
      const { rows } = await db.query<{ name: string }>(
        'SELECT name FROM app_secrets WHERE app_id = $1 ORDER BY name',
        [appId],
      );
      return rows.map((row) => row.name);
    },
    /** listSet returns the names of appId's secrets with when each was last set, sorted by name. */
    async listSet(appId: string): Promise<{ name: string; set_at: string }[]> {
      const { rows } = await db.query<{ name: string; set_at: Date | string }>(
        'SELECT name, updated_at AS set_at FROM app_secrets WHERE app_id = $1 ORDER BY name',
        [appId],
      );
      return rows.map((row) => ({ name: row.name, set_at: new Date(row.set_at).toISOString() }));
    },
    /** find returns the sealed value of one secret, or null. */
    async find(appId: string, name: string): Promise<string | null> {
      const { rows } = await db.query<{ sealed: string }>(
        'SELECT sealed FROM app_secrets WHERE app_id = $1 AND name = $2',
        [appId, name],
      );
      return rows[0]?.sealed ?? null;
    },
    /** count returns how many secrets appId has. */
    async count(appId: string): Promise<number> {
      const { rows } = await db.query<{ count: string | number }>(
        'SELECT count(*) AS count FROM app_secrets WHERE app_id = $1',
        [appId],
      );
      return Number(rows[0]?.count ?? 0);
    },
    /** put stores sealed as the value of (appId, name), replacing any earlier one. */
    async put(appId: string, name: string, sealed: string): Promise<void> {
      await db.query(
        `INSERT INTO app_secrets (app_id, name, sealed) VALUES ($1, $2, $3)
         ON CONFLICT (app_id, name) DO UPDATE SET sealed = EXCLUDED.sealed, updated_at = now()`,
        [appId, name, sealed],
      );
    },
    /** remove deletes one secret and says whether there was one. */
    async remove(appId: string, name: string): Promise<boolean> {
      const { rows } = await db.query<{ name: string }>(
        'DELETE FROM app_secrets WHERE app_id = $1 AND name = $2 RETURNING name',
        [appId, name],
      );
      return rows.length > 0;
    },
  };
}

export type SecretsStore = ReturnType<typeof createSecretsStore>;
