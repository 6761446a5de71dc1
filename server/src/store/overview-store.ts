import type { Queryable } from './database';

/** createOverviewStore returns the counts the console's Overview shows. */
export function createOverviewStore(db: Queryable) {
  return {
    /** countUsers returns how many accounts appId has. */
    async countUsers(appId: string): Promise<number> {
      const { rows } = await db.query<{ n: string | number }>(
        'SELECT count(*) AS n FROM users WHERE app_id = $1',
        [appId],
      );
      return Number(rows[0]?.n ?? 0);
    },
    /** countRecordsByEntity returns how many records each entity of appId holds (entities with none are absent). */
    async countRecordsByEntity(appId: string): Promise<Map<string, number>> {
      const { rows } = await db.query<{ entity: string; n: string | number }>(
        'SELECT entity, count(*) AS n FROM entity_records WHERE app_id = $1 GROUP BY entity',
        [appId],
      );
      return new Map(rows.map((row) => [row.entity, Number(row.n)]));
    },
  };
}

export type OverviewStore = ReturnType<typeof createOverviewStore>;
