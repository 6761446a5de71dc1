import type { Database, Queryable } from './database';

// All SQL of agent conversations: the conversations (owner, agent, metadata, the running turn's lease) and
// their messages, JSON documents in the SDK's shape kept in order.

/** ConversationRow is one conversation without its messages. */
export interface ConversationRow {
  id: string;
  app_id: string;
  agent_name: string;
  created_by_id: string | null;
  created_by: string | null;
  metadata: Record<string, unknown>;
  turn_running: boolean;
  created_date: string;
  updated_date: string;
}

/** StoredMessage is one message as the SDK reads it (`id`, `role`, `content`, `tool_calls`…). */
export type StoredMessage = { id: string } & Record<string, unknown>;

/** ConversationFilter narrows a listing: an owner (absent: everyone's), an agent, metadata values. */
export interface ConversationFilter {
  ownerId?: string | undefined;
  agentName?: string | undefined;
  /** metadata are top-level metadata keys and the text each must equal. */
  metadata?: Record<string, string> | undefined;
  sort: { field: 'created_date' | 'updated_date'; descending: boolean };
  limit: number;
  skip: number;
}

interface RawConversation extends Omit<ConversationRow, 'created_date' | 'updated_date'> {
  created_date: Date | string;
  updated_date: Date | string;
}

const iso = (value: Date | string) => new Date(value).toISOString();
const COLUMNS =
  'id, app_id, agent_name, created_by_id, created_by, metadata, turn_running, created_date, updated_date';
const conversationOf = (row: RawConversation): ConversationRow => ({
  ...row,
  created_date: iso(row.created_date),
  updated_date: iso(row.updated_date),
});

/** createAgentConversationsStore returns the SQL of agent conversations and their messages. */
export function createAgentConversationsStore(db: Database) {
  return {
    /** insert stores a new conversation. */
    async insert(row: Omit<ConversationRow, 'turn_running'>): Promise<void> {
      await db.query(
        `INSERT INTO agent_conversations
           (id, app_id, agent_name, created_by_id, created_by, metadata, created_date, updated_date)
         VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8)`,
        [
          row.id,
          row.app_id,
          row.agent_name,
          row.created_by_id,
          row.created_by,
          JSON.stringify(row.metadata),
          row.created_date,
          row.updated_date,
        ],
      );
    },

    /** find returns appId's conversation id, or null. */
    async find(appId: string, id: string): Promise<ConversationRow | null> {
      const { rows } = await db.query<RawConversation>(
        `SELECT ${COLUMNS} FROM agent_conversations WHERE app_id = $1 AND id = $2`,
        [appId, id],
      );
      return rows[0] ? conversationOf(rows[0]) : null;
    },

    /** list returns one page of appId's conversations matching filter. */
    async list(appId: string, filter: ConversationFilter): Promise<ConversationRow[]> {
      const params: unknown[] = [appId];
      const where = ['app_id = $1'];
      if (filter.ownerId !== undefined) where.push(`created_by_id = $${params.push(filter.ownerId)}`);
      if (filter.agentName !== undefined) where.push(`agent_name = $${params.push(filter.agentName)}`);
      for (const [key, value] of Object.entries(filter.metadata ?? {})) {
        where.push(`metadata ->> $${params.push(key)} = $${params.push(value)}`);
      }
      const direction = filter.sort.descending ? 'DESC' : 'ASC';
      const { rows } = await db.query<RawConversation>(
        `SELECT ${COLUMNS} FROM agent_conversations WHERE ${where.join(' AND ')}
         ORDER BY ${filter.sort.field} ${direction}, id ${direction}
         LIMIT $${params.push(filter.limit)} OFFSET $${params.push(filter.skip)}`,
        params,
      );
      return rows.map(conversationOf);
    },

    /** messages returns the conversation's messages in order. */
    async messages(conversationId: string): Promise<StoredMessage[]> {
      const { rows } = await db.query<{ body: StoredMessage }>(
        'SELECT body FROM agent_messages WHERE conversation_id = $1 ORDER BY position',
        [conversationId],
      );
      return rows.map((row) => row.body);
    },

    /** recentMessages returns the newest `count` messages of each conversation, in order, by conversation id. */
    async recentMessages(conversationIds: string[], count: number): Promise<Map<string, StoredMessage[]>> {
      const recent = new Map<string, StoredMessage[]>(conversationIds.map((id) => [id, []]));
      if (conversationIds.length === 0) return recent;
      const { rows } = await db.query<{ conversation_id: string; body: StoredMessage }>(
        `SELECT conversation_id, body FROM (
           SELECT conversation_id, position, body,
                  row_number() OVER (PARTITION BY conversation_id ORDER BY position DESC) AS newest
           FROM agent_messages WHERE conversation_id = ANY($1::text[])
         ) ranked WHERE newest <= $2 ORDER BY conversation_id, position`,
        [conversationIds, count],
      );
      for (const row of rows) recent.get(row.conversation_id)?.push(row.body);
      return recent;
    },

    /** messageCount is how many messages the conversation holds. */
    async messageCount(conversationId: string): Promise<number> {
      const { rows } = await db.query<{ count: string | number }>(
        'SELECT count(*) AS count FROM agent_messages WHERE conversation_id = $1',
        [conversationId],
      );
      return Number(rows[0]?.count ?? 0);
    },

    /**
     * startTurn marks the conversation as running a turn until leaseUntil, and appends message; false (and
     * nothing stored) when a turn already runs.
     */
    async startTurn(appId: string, id: string, message: StoredMessage, leaseUntil: Date): Promise<boolean> {
      return db.transaction(async (tx) => {
        const { rows } = await tx.query<{ id: string }>(
          `UPDATE agent_conversations SET turn_running = true, turn_lease_until = $3, updated_date = now()
           WHERE app_id = $1 AND id = $2 AND NOT turn_running RETURNING id`,
          [appId, id, leaseUntil.toISOString()],
        );
        if (rows.length === 0) return false;
        await appendIn(tx, id, message);
        return true;
      });
    },

    /** append adds message at the end of the conversation. */
    append: (conversationId: string, message: StoredMessage): Promise<void> =>
      appendIn(db, conversationId, message),

    /** save replaces the stored message of the same id. */
    async save(conversationId: string, message: StoredMessage): Promise<void> {
      await db.query('UPDATE agent_messages SET body = $3::jsonb WHERE conversation_id = $1 AND id = $2', [
        conversationId,
        message.id,
        JSON.stringify(message),
      ]);
    },

    /** renewLeases moves the lease of the given running turns to leaseUntil. */
    async renewLeases(ids: string[], leaseUntil: Date): Promise<void> {
      if (ids.length === 0) return;
      await db.query(
        'UPDATE agent_conversations SET turn_lease_until = $2 WHERE id = ANY($1::text[]) AND turn_running',
        [ids, leaseUntil.toISOString()],
      );
    },

    /** endTurn marks the conversation's turn as over. */
    async endTurn(id: string): Promise<void> {
      await db.query(
        `UPDATE agent_conversations SET turn_running = false, turn_lease_until = NULL, updated_date = now()
         WHERE id = $1`,
        [id],
      );
    },

    /**
     * claimAbandoned takes up to limit running turns whose lease ended before now (every running turn with
     * `all`: no other instance shares the database), leasing them to the caller until leaseUntil.
     */
    async claimAbandoned(
      now: Date,
      leaseUntil: Date,
      limit: number,
      all = false,
    ): Promise<ConversationRow[]> {
      const { rows } = await db.query<RawConversation>(
        `UPDATE agent_conversations SET turn_lease_until = $2
         WHERE id IN (
           SELECT id FROM agent_conversations
           WHERE turn_running AND ($4 OR turn_lease_until IS NULL OR turn_lease_until < $1)
           ORDER BY turn_lease_until LIMIT $3
         )
         -- Checked again on the row itself: of two instances claiming at once, the second sees the new lease.
         AND turn_running AND ($4 OR turn_lease_until IS NULL OR turn_lease_until < $1)
         RETURNING ${COLUMNS}`,
        [now.toISOString(), leaseUntil.toISOString(), limit, all],
      );
      return rows.map(conversationOf);
    },
  };
}

/** appendIn adds message after the conversation's last one. */
async function appendIn(db: Queryable, conversationId: string, message: StoredMessage): Promise<void> {
  await db.query(
    `INSERT INTO agent_messages (conversation_id, position, id, body)
     SELECT $1, coalesce(max(position) + 1, 0), $2, $3::jsonb FROM agent_messages WHERE conversation_id = $1`,
    [conversationId, message.id, JSON.stringify(message)],
  );
}

export type AgentConversationsStore = ReturnType<typeof createAgentConversationsStore>;
