import type { Queryable } from './database';
import { pruneExpired } from './prune-expired';

/** MailLogEntry is one send's outcome: never the recipient, subject or body. */
export interface MailLogEntry {
  app_id: string;
  ok: boolean;
  transport: 'smtp' | 'outbox';
  /** error is the send's failure message, cut short. */
  error: string | null;
}

/** createMailLogStore returns the SQL for the mail_log table. */
export function createMailLogStore(db: Queryable) {
  return {
    /** insert records one send. */
    async insert(entry: MailLogEntry): Promise<void> {
      await db.query('INSERT INTO mail_log (app_id, ok, transport, error) VALUES ($1, $2, $3, $4)', [
        entry.app_id,
        entry.ok,
        entry.transport,
        entry.error,
      ]);
    },
    /** prune deletes at most batch records older than cutoff (any app) and says how many. */
    prune: (cutoff: string, batch: number) =>
      pruneExpired(db, { table: 'mail_log', timeColumn: 'sent_at' }, cutoff, batch),
  };
}

export type MailLogStore = ReturnType<typeof createMailLogStore>;
