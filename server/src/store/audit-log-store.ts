import type { Queryable } from './database';
import { pruneExpired } from './prune-expired';

/** AuditRow is one stored change. */
export interface AuditRow {
  id: string;
  logged_at: Date;
  actor: unknown;
  action: string;
  target: string;
  before: unknown;
  after: unknown;
}

/** NewAuditRow is what is recorded (logged_at is the database's now()). */
export interface NewAuditRow {
  appId: string;
  actor: unknown;
  action: string;
  target: string;
  before: unknown;
  after: unknown;
}

/** AuditLogStore is the SQL of the audit log. */
export type AuditLogStore = ReturnType<typeof createAuditLogStore>;

/** createAuditLogStore returns the SQL of the audit log. */
export function createAuditLogStore(db: Queryable) {
  return {
    /** insert stores one change and answers it as stored (its id and time). */
    async insert(row: NewAuditRow): Promise<AuditRow> {
      const { rows } = await db.query<AuditRow>(
        `INSERT INTO app_audit_log (app_id, actor, action, target, before, after)
         VALUES ($1, $2::jsonb, $3, $4, $5::jsonb, $6::jsonb)
         RETURNING id::text AS id, logged_at, actor, action, target, before, after`,
        [
          row.appId,
          JSON.stringify(row.actor),
          row.action,
          row.target,
          row.before === null ? null : JSON.stringify(row.before),
          row.after === null ? null : JSON.stringify(row.after),
        ],
      );
      // An INSERT … RETURNING of one row answers that row.
      return rows[0] as AuditRow;
    },
    /** list returns appId's newest changes first, older than before when given (paging by time). */
    async list(appId: string, query: { limit: number; before?: string | undefined }): Promise<AuditRow[]> {
      const { rows } = await db.query<AuditRow>(
        `SELECT id::text AS id, logged_at, actor, action, target, before, after FROM app_audit_log
         WHERE app_id = $1 AND ($2::timestamptz IS NULL OR logged_at < $2::timestamptz)
         ORDER BY logged_at DESC, id DESC LIMIT $3`,
        [appId, query.before ?? null, query.limit],
      );
      return rows;
    },
    prune: (cutoff: string, batch: number) =>
      pruneExpired(db, { table: 'app_audit_log', timeColumn: 'logged_at' }, cutoff, batch),
  };
}
