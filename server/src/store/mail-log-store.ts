import type { Queryable } from './database';

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
  };
}

export type MailLogStore = ReturnType<typeof createMailLogStore>;
