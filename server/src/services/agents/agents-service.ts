// Agent conversations (the SDK's `agents` module): list, read and create conversations, and add a user's
// message, which starts the agent's turn (agent-turns.ts) and answers the stored message at once. A
// conversation belongs to its creator: admins and the service role see every one, anyone else gets 404.
import { randomUUID } from 'node:crypto';
import {
  ConflictError,
  NotFoundError,
  PayloadTooLargeError,
  TooManyRequestsError,
  UnauthorizedError,
} from '../../lib/errors';
import type { AgentDef } from '../../project/agent-loader';
import type { Caller } from '../../rules/caller';
import type { AddMessageBody, ListConversationsQuery } from '../../schemas/agents';
import type { AgentConversationsStore } from '../../store/agent-conversations-store';
import type { RateLimiter } from '../limits/rate-limiter';
import type { AgentTurns } from './agent-turns';
import type { CallHeaders } from './agent-tools';
import {
  conversationOf,
  forPush,
  mayRead,
  newMessage,
  type AgentMessage,
  type Conversation,
} from './conversation-view';

/** MAX_MESSAGES is the most messages one conversation holds (then the app starts a new one). */
export const MAX_MESSAGES = 1_000;
/**
 * CONVERSATIONS_PER_HOUR is how many conversations one user may start in an hour: apps start one per chat,
 * and a script must not fill the database with empty ones.
 */
export const CONVERSATIONS_PER_HOUR = 120;
const HOUR_MS = 60 * 60 * 1000;

/** LIST_MESSAGES is how many of each conversation's newest messages a listing carries. */
export const LIST_MESSAGES = 20;

/** AgentsService is what the agents routes call. */
export interface AgentsService {
  /** listConversations is a page of the conversations caller may read (its own; all for admins). */
  listConversations(
    appId: string,
    caller: Caller,
    query: ListConversationsQuery,
  ): Promise<Record<string, unknown>[]>;
  /** getConversation is one conversation with every message (404 when caller may not read it). */
  getConversation(appId: string, caller: Caller, id: string): Promise<Conversation>;
  /** createConversation starts an empty conversation with agentName, owned by caller. */
  createConversation(
    appId: string,
    caller: Caller,
    input: { agent_name: string; metadata?: Record<string, unknown> | undefined },
  ): Promise<Conversation>;
  /** addMessage stores a user's message and starts the agent's turn; it answers the stored message. */
  addMessage(
    appId: string,
    caller: Caller,
    headers: CallHeaders,
    id: string,
    body: AddMessageBody,
  ): Promise<AgentMessage>;
  /** ownerOf is a conversation's creator id (null: the service role), or undefined when appId has no such one. */
  ownerOf(appId: string, id: string): Promise<string | null | undefined>;
}

/** createAgentsService builds the conversations on the store and the turns. */
export function createAgentsService(deps: {
  agents: ReadonlyMap<string, AgentDef>;
  store: AgentConversationsStore;
  turns: AgentTurns;
  leaseMs: number;
  /** limiter counts conversation starts per user (shared by every instance with REDIS_URL). */
  limiter: Pick<RateLimiter, 'hit'>;
}): AgentsService {
  const { store } = deps;

  function requireSignedIn(caller: Caller): void {
    if (caller.kind === 'anonymous') {
      throw new UnauthorizedError('Agents need a signed-in user: sign in first', 'auth_required');
    }
  }

  async function readable(appId: string, caller: Caller, id: string) {
    const row = await store.find(appId, id);
    if (!row || !mayRead(row.created_by_id, caller)) throw new NotFoundError(`Conversation ${id} not found`);
    return row;
  }

  /** ownerFilter is whose conversations caller may list: its own (users), everyone's (admins, service). */
  const ownerFilter = (caller: Caller) =>
    caller.kind === 'user' && caller.user.role !== 'admin' ? caller.user.id : undefined;

  return {
    async listConversations(appId, caller, query) {
      requireSignedIn(caller);
      const own = ownerFilter(caller);
      const rows = await store.list(appId, {
        ownerId: own ?? query.created_by_id,
        agentName: query.agent_name,
        metadata: query.metadata,
        sort: {
          field: query.sort.replace(/^-/, '') as 'created_date' | 'updated_date',
          descending: query.sort.startsWith('-'),
        },
        limit: query.limit,
        skip: query.skip,
      });
      // A listing carries each conversation's newest LIST_MESSAGES messages (bounded as pushes are), so a
      // page of long conversations stays small; getConversation has them all.
      const recent = await store.recentMessages(
        rows.map((row) => row.id),
        LIST_MESSAGES,
      );
      return rows.map((row) => {
        const messages = ((recent.get(row.id) ?? []) as AgentMessage[]).map(forPush);
        const conversation: Record<string, unknown> = { ...conversationOf(row, messages) };
        if (!query.fields) return conversation;
        return Object.fromEntries(
          query.fields.filter((field) => field in conversation).map((field) => [field, conversation[field]]),
        );
      });
    },

    async getConversation(appId, caller, id) {
      requireSignedIn(caller);
      const row = await readable(appId, caller, id);
      return conversationOf(row, (await store.messages(id)) as AgentMessage[]);
    },

    async createConversation(appId, caller, input) {
      requireSignedIn(caller);
      if (!deps.agents.has(input.agent_name)) throw new NotFoundError(`Agent ${input.agent_name} not found`);
      if (caller.kind === 'user') {
        const decision = await deps.limiter.hit(
          `agent-conversations:${appId}:${caller.user.id}`,
          CONVERSATIONS_PER_HOUR,
          HOUR_MS,
        );
        if (!decision.allowed) {
          throw new TooManyRequestsError(
            `You started ${CONVERSATIONS_PER_HOUR} conversations in the last hour: continue one of them, or try again later`,
            decision.retryAfterSeconds,
          );
        }
      }
      const now = new Date().toISOString();
      const row = {
        id: randomUUID(),
        app_id: appId,
        agent_name: input.agent_name,
        created_by_id: caller.kind === 'user' ? caller.user.id : null,
        created_by: caller.kind === 'user' ? caller.user.email : null,
        metadata: input.metadata ?? {},
        created_date: now,
        updated_date: now,
      };
      await store.insert(row);
      return conversationOf({ ...row, turn_running: false }, []);
    },

    async addMessage(appId, caller, headers, id, body) {
      requireSignedIn(caller);
      const row = await readable(appId, caller, id);
      const agent = deps.agents.get(row.agent_name);
      if (!agent) throw new NotFoundError(`Agent ${row.agent_name} is no longer part of this app`);
      // Every refusal comes before the history is read: a refused message costs one count, not the thread.
      if ((await store.messageCount(id)) >= MAX_MESSAGES - 1) {
        throw new PayloadTooLargeError(`This conversation holds ${MAX_MESSAGES} messages: start a new one`);
      }
      const message = newMessage('user', body.content, caller, {
        file_urls: body.file_urls ?? [],
        custom_context: body.custom_context ?? [],
        hidden: body.hidden ?? false,
        ...(body.additional_message_params
          ? { additional_message_params: body.additional_message_params }
          : {}),
      });
      deps.turns.admit(caller);
      const started = await store.startTurn(appId, id, message, new Date(Date.now() + deps.leaseMs));
      if (!started)
        throw new ConflictError('The agent is still answering the previous message: wait for its reply');
      // Read after the message was appended: it is the history's last entry.
      const history = (await store.messages(id)) as AgentMessage[];
      deps.turns.start({ conversation: row, history, agent, caller, headers });
      return message;
    },

    async ownerOf(appId, id) {
      const row = await store.find(appId, id);
      return row ? row.created_by_id : undefined;
    },
  };
}
