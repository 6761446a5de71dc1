import type { Database } from './database';

// The SQL of the console's conversation browser: a page of any user's conversations, newest first (keyset on
// the (app_id, created_date, id) index), each with its message count and the tokens and tool calls in it.

/** ConversationSummary is one conversation of the browser's list. */
export interface ConversationSummary {
  id: string;
  agent_name: string;
  created_by_id: string | null;
  created_by: string | null;
  metadata: Record<string, unknown>;
  turn_running: boolean;
  created_date: string;
  updated_date: string;
  messages: number;
  tool_calls: number;
  prompt_tokens: number;
  completion_tokens: number;
}

/** SummaryFilter narrows the list: an agent, a creator (email in any case, or id), and the keyset position. */
export interface SummaryFilter {
  agentName?: string | undefined;
  user?: string | undefined;
  before?: { createdDate: string; id: string } | undefined;
  limit: number;
}

type Counted =
  'created_date' | 'updated_date' | 'messages' | 'tool_calls' | 'prompt_tokens' | 'completion_tokens';
interface RawSummary extends Omit<ConversationSummary, Counted> {
  created_date: Date | string;
  updated_date: Date | string;
  messages: number | string;
  tool_calls: number | string;
  prompt_tokens: number | string;
  completion_tokens: number | string;
}

/** createAgentBrowserStore returns the conversation browser's query. */
export function createAgentBrowserStore(db: Database) {
  return {
    /** summaries is one page of appId's conversations matching filter, newest first. */
    async summaries(appId: string, filter: SummaryFilter): Promise<ConversationSummary[]> {
      const params: unknown[] = [appId];
      const where = ['c.app_id = $1'];
      if (filter.agentName !== undefined) where.push(`c.agent_name = $${params.push(filter.agentName)}`);
      if (filter.user !== undefined) {
        const user = params.push(filter.user);
        where.push(`(lower(c.created_by) = lower($${user}) OR c.created_by_id = $${user})`);
      }
      if (filter.before) {
        const at = params.push(filter.before.createdDate);
        where.push(`(c.created_date, c.id) < ($${at}::timestamptz, $${params.push(filter.before.id)})`);
      }
      const { rows } = await db.query<RawSummary>(
        `SELECT c.id, c.agent_name, c.created_by_id, c.created_by, c.metadata, c.turn_running,
                c.created_date, c.updated_date, s.messages, s.tool_calls, s.prompt_tokens, s.completion_tokens
         FROM agent_conversations c
         CROSS JOIN LATERAL (
           SELECT count(*) AS messages,
                  coalesce(sum(CASE WHEN jsonb_typeof(m.body -> 'tool_calls') = 'array'
                                    THEN jsonb_array_length(m.body -> 'tool_calls') END), 0) AS tool_calls,
                  coalesce(sum((m.body -> 'usage' ->> 'prompt_tokens')::bigint), 0) AS prompt_tokens,
                  coalesce(sum((m.body -> 'usage' ->> 'completion_tokens')::bigint), 0) AS completion_tokens
           FROM agent_messages m WHERE m.conversation_id = c.id
         ) s
         WHERE ${where.join(' AND ')}
         ORDER BY c.created_date DESC, c.id DESC
         LIMIT $${params.push(filter.limit)}`,
        params,
      );
      return rows.map((row) => ({
        ...row,
        created_date: new Date(row.created_date).toISOString(),
        updated_date: new Date(row.updated_date).toISOString(),
        messages: Number(row.messages),
        tool_calls: Number(row.tool_calls),
        prompt_tokens: Number(row.prompt_tokens),
        completion_tokens: Number(row.completion_tokens),
      }));
    },
  };
}

export type AgentBrowserStore = ReturnType<typeof createAgentBrowserStore>;
