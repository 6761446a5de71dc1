import type { Queryable } from './database';

/** LlmUsageEntry is one LLM call's spend as recorded. */
export interface LlmUsageEntry {
  integration: string;
  model: string;
  caller_kind: 'user' | 'service' | 'anonymous';
  user_id: string | null;
  prompt_tokens: number;
  completion_tokens: number;
}

/** LlmUsageRow is a recorded call as the operator reads it. */
export interface LlmUsageRow extends LlmUsageEntry {
  id: string;
  created_date: string;
}

/** createLlmUsageStore returns the SQL for the llm_usage table. */
export function createLlmUsageStore(db: Queryable) {
  return {
    /** insertBatch records calls (of any apps) in one statement. */
    async insertBatch(rows: (LlmUsageEntry & { app_id: string; created_at: string })[]): Promise<void> {
      if (rows.length === 0) return;
      await db.query(
        `INSERT INTO llm_usage
           (app_id, integration, model, caller_kind, user_id, prompt_tokens, completion_tokens, created_at)
         SELECT r.app_id, r.integration, r.model, r.caller_kind, r.user_id, r.prompt_tokens,
           r.completion_tokens, r.created_at
         FROM jsonb_to_recordset($1::jsonb) AS r(
           app_id text, integration text, model text, caller_kind text, user_id text, prompt_tokens int,
           completion_tokens int, created_at timestamptz
         )`,
        [JSON.stringify(rows)],
      );
    },
    /** tokensSince is the tokens appId spent since `since` (the UTC day's start for the daily budget). */
    async tokensSince(appId: string, since: Date): Promise<number> {
      const { rows } = await db.query<{ tokens: string | number | null }>(
        `SELECT sum(prompt_tokens + completion_tokens) AS tokens FROM llm_usage
         WHERE app_id = $1 AND created_at >= $2`,
        [appId, since.toISOString()],
        { reuse: true },
      );
      return Number(rows[0]?.tokens ?? 0);
    },
    /** recent lists appId's newest calls first (at most limit). */
    async recent(appId: string, limit: number): Promise<LlmUsageRow[]> {
      const { rows } = await db.query<LlmUsageRow & { created_at: Date | string; id: string | number }>(
        `SELECT id, integration, model, caller_kind, user_id, prompt_tokens, completion_tokens, created_at
         FROM llm_usage WHERE app_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
        [appId, limit],
      );
      return rows.map(({ created_at, id, ...row }) => ({
        ...row,
        id: String(id),
        created_date: new Date(created_at).toISOString(),
      }));
    },
  };
}

export type LlmUsageStore = ReturnType<typeof createLlmUsageStore>;
