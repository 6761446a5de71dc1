import type { Queryable } from './database';

/** SignInSessionsStore is the SQL of sign-in sessions: the rows that keep session-bound tokens alive. */
export type SignInSessionsStore = ReturnType<typeof createSignInSessionsStore>;

/** PRUNE_BATCH is how many expired sessions one start removes at most (starts are rate-limited sign-ins). */
const PRUNE_BATCH = 100;

/** MAX_SESSIONS_PER_USER bounds a user's live sessions: a new one ends the oldest past it. */
export const MAX_SESSIONS_PER_USER = 20;

/** createSignInSessionsStore returns the SQL for sign-in sessions. */
export function createSignInSessionsStore(db: Queryable) {
  return {
    /**
     * start stores a session of userId until expiresAt, ends that user's oldest past MAX_SESSIONS_PER_USER,
     * and removes a batch of expired ones.
     */
    async start(session: { id: string; appId: string; userId: string; expiresAt: Date }): Promise<void> {
      await db.query(
        'INSERT INTO sign_in_sessions (id, app_id, user_id, expires_at) VALUES ($1, $2, $3, $4)',
        [session.id, session.appId, session.userId, session.expiresAt],
      );
      await db.query(
        `DELETE FROM sign_in_sessions WHERE id = ANY (ARRAY(
           SELECT id FROM sign_in_sessions WHERE app_id = $1 AND user_id = $2
           ORDER BY created_at DESC, id OFFSET $3
         ))`,
        [session.appId, session.userId, MAX_SESSIONS_PER_USER],
      );
      await db.query(
        `DELETE FROM sign_in_sessions WHERE id = ANY (ARRAY(
           SELECT id FROM sign_in_sessions WHERE expires_at < now() ORDER BY expires_at LIMIT $1
         ))`,
        [PRUNE_BATCH],
      );
    },
    /** live answers which of ids are sessions of appId that have not ended or expired. */
    async live(appId: string, ids: readonly string[]): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const { rows } = await db.query<{ id: string }>(
        'SELECT id FROM sign_in_sessions WHERE app_id = $1 AND id = ANY ($2::text[]) AND expires_at > now()',
        [appId, ids],
      );
      return new Set(rows.map((row) => row.id));
    },
    /** end deletes session id of appId and says whether it was there. */
    async end(appId: string, id: string): Promise<boolean> {
      const { rows } = await db.query(
        'DELETE FROM sign_in_sessions WHERE app_id = $1 AND id = $2 RETURNING 1',
        [appId, id],
      );
      return rows.length > 0;
    },
  };
}
