// Conversations and messages as the SDK reads them: the stored message documents, the
// conversation around them, who may read one, and the bounded copies realtime pushes carry.
import { randomUUID } from 'node:crypto';
import type { Caller } from '../../rules/caller';
import type { ConversationRow, StoredMessage } from '../../store/agent-conversations-store';

/** ToolCallView is one tool call of an assistant message; results is a JSON string once it ended. */
export interface ToolCallView {
  id: string;
  name: string;
  arguments_string: string;
  status: 'running' | 'success' | 'error' | 'stopped';
  results: string | null;
}

/** AgentMessage is a message document: the SDK's fields, and `status` on the agent's own messages. */
export interface AgentMessage extends StoredMessage {
  role: 'user' | 'assistant';
  content: unknown;
  created_date: string;
  updated_date: string;
  tool_calls: ToolCallView[];
  usage: { prompt_tokens: number; completion_tokens: number } | null;
  model: string | null;
  file_urls: string[];
  custom_context: unknown[];
  hidden: boolean;
  metadata: { created_date: string; created_by_email: string | null; created_by_full_name: string | null };
  /** status is the assistant message's: `running` while the turn writes it, then `success` or `error`. */
  status?: 'running' | 'success' | 'error';
  additional_message_params?: Record<string, unknown>;
}

/** Conversation is what `getConversation` answers. */
export interface Conversation {
  id: string;
  app_id: string;
  agent_name: string;
  created_by_id: string | null;
  created_by: string | null;
  created_date: string;
  updated_date: string;
  metadata: Record<string, unknown>;
  messages: AgentMessage[];
}

/** PUSH_ARGUMENTS_CHARS and PUSH_RESULTS_CHARS are the bounds of a push's tool calls (the SDK's docs). */
export const PUSH_ARGUMENTS_CHARS = 500;
export const PUSH_RESULTS_CHARS = 50;
/** PUSH_MESSAGES is how many of the newest messages a push's conversation carries (older SDKs replace theirs). */
export const PUSH_MESSAGES = 50;

/** mayRead says whether caller may read a conversation created by ownerId: its creator, admins, the service role. */
export function mayRead(ownerId: string | null, caller: Caller): boolean {
  if (caller.kind === 'service') return true;
  if (caller.kind !== 'user') return false;
  return caller.user.role === 'admin' || (ownerId !== null && caller.user.id === ownerId);
}

/** newMessage is a fresh message by role, stamped now, written by author. */
export function newMessage(
  role: AgentMessage['role'],
  content: unknown,
  author: Caller,
  extra: Partial<AgentMessage> = {},
): AgentMessage {
  const now = new Date().toISOString();
  const user = author.kind === 'user' ? author.user : null;
  return {
    id: randomUUID(),
    role,
    content,
    created_date: now,
    updated_date: now,
    tool_calls: [],
    usage: null,
    model: null,
    file_urls: [],
    custom_context: [],
    hidden: false,
    metadata: {
      created_date: now,
      created_by_email: role === 'user' ? (user?.email ?? null) : null,
      created_by_full_name: role === 'user' ? (user?.full_name ?? null) : null,
    },
    ...extra,
  };
}

/** conversationOf joins a conversation row and its messages. */
export function conversationOf(row: ConversationRow, messages: AgentMessage[]): Conversation {
  return {
    id: row.id,
    app_id: row.app_id,
    agent_name: row.agent_name,
    created_by_id: row.created_by_id,
    created_by: row.created_by,
    created_date: row.created_date,
    updated_date: row.updated_date,
    metadata: row.metadata,
    messages,
  };
}

const cut = (text: string | null, max: number) =>
  text !== null && text.length > max ? text.slice(0, max) : text;

/** forPush is message as a push carries it: tool-call arguments and results cut to the SDK's bounds. */
export function forPush(message: AgentMessage): AgentMessage {
  if (message.tool_calls.length === 0) return message;
  return {
    ...message,
    tool_calls: message.tool_calls.map((call) => ({
      ...call,
      arguments_string: cut(call.arguments_string, PUSH_ARGUMENTS_CHARS) ?? '',
      results: cut(call.results, PUSH_RESULTS_CHARS),
    })),
  };
}

/**
 * pushPayload is `{...conversation, _message}`: SDK 0.8.50 reads `_message`, older ones the whole
 * conversation (its newest PUSH_MESSAGES messages, bounded as forPush bounds them).
 */
export function pushPayload(conversation: Conversation, message: AgentMessage): Record<string, unknown> {
  return {
    ...conversation,
    messages: conversation.messages.slice(-PUSH_MESSAGES).map(forPush),
    _message: forPush(message),
  };
}
