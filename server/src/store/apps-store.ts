import type { Queryable } from './database';

/** AppRow is one row of the apps table. */
export interface AppRow {
  id: string;
  public_settings: string;
  self_signup: boolean;
}

/** createAppsStore returns the SQL for the apps table. */
export function createAppsStore(db: Queryable) {
  return {
    /** ensure inserts the app with default settings unless it already exists. */
    async ensure(id: string): Promise<void> {
      await db.query('INSERT INTO apps (id) VALUES ($1) ON CONFLICT (id) DO NOTHING', [id]);
    },
    /** findById returns the app or null. */
    async findById(id: string): Promise<AppRow | null> {
      const { rows } = await db.query<AppRow>(
        'SELECT id, public_settings, self_signup FROM apps WHERE id = $1',
        [id],
      );
      return rows[0] ?? null;
    },
    /** updateSettings changes the visibility and/or self-sign-up flag; undefined leaves a value as it is. */
    async updateSettings(
      id: string,
      settings: { publicSettings?: string | undefined; selfSignup?: boolean | undefined },
    ): Promise<void> {
      await db.query(
        `UPDATE apps SET public_settings = COALESCE($2, public_settings),
           self_signup = COALESCE($3, self_signup), updated_at = now()
         WHERE id = $1`,
        [id, settings.publicSettings ?? null, settings.selfSignup ?? null],
      );
    },
  };
}

export type AppsStore = ReturnType<typeof createAppsStore>;
