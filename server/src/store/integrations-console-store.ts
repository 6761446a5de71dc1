import type { Queryable } from './database';

/** LlmUseByCaller is one kind of caller's LLM calls and tokens since a moment. */
export interface LlmUseByCaller {
  caller_kind: string;
  calls: number;
  tokens: number;
}

/** LlmTopUser is one user's LLM calls and tokens since a moment (email null once the user is gone). */
export interface LlmTopUser {
  user_id: string;
  email: string | null;
  calls: number;
  tokens: number;
}

/** RecentMail is one send's outcome as the console shows it: never its recipient, subject or body. */
export interface RecentMail {
  sent_at: string;
  ok: boolean;
  transport: string;
  error: string | null;
}

const count = (value: string | number | null | undefined) => Number(value ?? 0);

/** createIntegrationsConsoleStore returns the SQL of the console's Integrations page (usage, mail, files). */
export function createIntegrationsConsoleStore(db: Queryable) {
  return {
    /** llmUseSince is appId's LLM calls and tokens since `since`, per kind of caller. */
    async llmUseSince(appId: string, since: Date): Promise<LlmUseByCaller[]> {
      const { rows } = await db.query<{
        caller_kind: string;
        calls: string | number;
        tokens: string | number;
      }>(
        `SELECT caller_kind, count(*) AS calls, coalesce(sum(prompt_tokens + completion_tokens), 0) AS tokens
         FROM llm_usage WHERE app_id = $1 AND created_at >= $2 GROUP BY caller_kind ORDER BY caller_kind`,
        [appId, since.toISOString()],
      );
      return rows.map((row) => ({
        caller_kind: row.caller_kind,
        calls: count(row.calls),
        tokens: count(row.tokens),
      }));
    },
    /** llmTopUsersSince is the limit users of appId who spent the most tokens since `since`, most first. */
    async llmTopUsersSince(appId: string, since: Date, limit: number): Promise<LlmTopUser[]> {
      const { rows } = await db.query<{
        user_id: string;
        email: string | null;
        calls: string | number;
        tokens: string | number;
      }>(
        `SELECT u.user_id, users.email, u.calls, u.tokens FROM (
           SELECT user_id, count(*) AS calls, sum(prompt_tokens + completion_tokens) AS tokens FROM llm_usage
           WHERE app_id = $1 AND created_at >= $2 AND user_id IS NOT NULL GROUP BY user_id
           ORDER BY tokens DESC, user_id LIMIT $3
         ) u LEFT JOIN users ON users.app_id = $1 AND users.id = u.user_id
         ORDER BY u.tokens DESC, u.user_id`,
        [appId, since.toISOString(), limit],
      );
      return rows.map((row) => ({ ...row, calls: count(row.calls), tokens: count(row.tokens) }));
    },
    /** recentMails lists appId's last limit sends, newest first. */
    async recentMails(appId: string, limit: number): Promise<RecentMail[]> {
      const { rows } = await db.query<Omit<RecentMail, 'sent_at'> & { sent_at: Date | string }>(
        `SELECT sent_at, ok, transport, error FROM mail_log WHERE app_id = $1
         ORDER BY sent_at DESC, id DESC LIMIT $2`,
        [appId, limit],
      );
      return rows.map((row) => ({ ...row, sent_at: new Date(row.sent_at).toISOString() }));
    },
    /** mailsSince counts appId's sends since `since`, sent and failed. */
    async mailsSince(appId: string, since: Date): Promise<{ sent: number; failed: number }> {
      const { rows } = await db.query<{ sent: string | number | null; failed: string | number | null }>(
        `SELECT count(*) FILTER (WHERE ok) AS sent, count(*) FILTER (WHERE NOT ok) AS failed
         FROM mail_log WHERE app_id = $1 AND sent_at >= $2`,
        [appId, since.toISOString()],
      );
      return { sent: count(rows[0]?.sent), failed: count(rows[0]?.failed) };
    },
    /** storedFiles is how many files appId keeps and their bytes. */
    async storedFiles(appId: string): Promise<{ files: number; bytes: number }> {
      const { rows } = await db.query<{ files: string | number; bytes: string | number | null }>(
        'SELECT count(*) AS files, coalesce(sum(size), 0) AS bytes FROM files WHERE app_id = $1',
        [appId],
      );
      return { files: count(rows[0]?.files), bytes: count(rows[0]?.bytes) };
    },
  };
}

export type IntegrationsConsoleStore = ReturnType<typeof createIntegrationsConsoleStore>;
