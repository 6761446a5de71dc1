import type { Queryable } from './database';

/** AppRow is one row of the apps table. */
export interface AppRow {
  id: string;
  public_settings: string;
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
      const { rows } = await db.query<AppRow>('SELECT id, public_settings FROM apps WHERE id = $1', [id]);
      return rows[0] ?? null;
    },
  };
}

export type AppsStore = ReturnType<typeof createAppsStore>;
