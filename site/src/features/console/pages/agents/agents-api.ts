import { z } from 'zod';
import type { ConsoleApi } from '../../api/console-api';
import { readServerEvents } from '../../api/server-events';

// The Agents page's calls: the project's agents, the conversation browser, the test chat and its live
// stream (server-sent events read through fetch, so the request carries the console's bearer token).

const ToolSchema = z.union([
  z.object({ kind: z.literal('entity'), entity: z.string(), operations: z.array(z.string()) }),
  z.object({ kind: z.literal('function'), function: z.string(), description: z.string().nullish() }),
]);
export type AgentTool = z.infer<typeof ToolSchema>;

const AgentSchema = z.object({
  name: z.string(),
  file: z.string(),
  description: z.string(),
  instructions: z.string(),
  model: z.string().nullable(),
  tools: z.array(ToolSchema),
  skills: z.array(z.object({ name: z.string(), description: z.string() })),
});
export type ConsoleAgent = z.infer<typeof AgentSchema>;

const ToolCallSchema = z.object({
  id: z.string(),
  name: z.string(),
  arguments_string: z.string(),
  status: z.string(),
  results: z.string().nullable(),
});
export type ToolCall = z.infer<typeof ToolCallSchema>;

const MessageSchema = z.object({
  id: z.string(),
  role: z.string(),
  content: z.unknown(),
  status: z.string().optional(),
  created_date: z.string(),
  tool_calls: z.array(ToolCallSchema).default([]),
  usage: z.object({ prompt_tokens: z.number(), completion_tokens: z.number() }).nullable().default(null),
  model: z.string().nullable().default(null),
  hidden: z.boolean().default(false),
});
export type AgentMessage = z.infer<typeof MessageSchema>;

const ConversationSchema = z.object({
  id: z.string(),
  agent_name: z.string(),
  created_by: z.string().nullable(),
  created_date: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  messages: z.array(MessageSchema),
  turn_running: z.boolean().optional(),
});
export type AgentConversation = z.infer<typeof ConversationSchema>;

const SummarySchema = z.object({
  id: z.string(),
  agent_name: z.string(),
  created_by: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
  turn_running: z.boolean(),
  created_date: z.string(),
  updated_date: z.string(),
  messages: z.number(),
  tool_calls: z.number(),
  prompt_tokens: z.number(),
  completion_tokens: z.number(),
});
export type ConversationSummary = z.infer<typeof SummarySchema>;
const SummariesSchema = z.object({ items: z.array(SummarySchema), next: z.string().nullable() });

export const AGENTS_KEY = ['console', 'agents'];

/** fetchAgents lists the project's agents with their instructions, tools and skills. */
export async function fetchAgents(api: ConsoleApi): Promise<ConsoleAgent[]> {
  return (await api.call('/admin/agents', z.object({ agents: z.array(AgentSchema) }))).agents;
}

/** ConversationFilters are the browser's filters: an agent and a user (email), empty for all. */
export interface ConversationFilters {
  agent: string;
  user: string;
}

/** fetchConversations is one page of any user's conversations, newest first, older than before. */
export function fetchConversations(api: ConsoleApi, filters: ConversationFilters, before: string | null) {
  const params = new URLSearchParams();
  if (filters.agent) params.set('agent', filters.agent);
  if (filters.user) params.set('user', filters.user);
  if (before) params.set('before', before);
  return api.call(`/admin/agents/conversations?${params.toString()}`, SummariesSchema);
}

/** fetchConversation reads one conversation with every message. */
export function fetchConversation(api: ConsoleApi, id: string) {
  return api.call(`/admin/agents/conversations/${encodeURIComponent(id)}`, ConversationSchema);
}

/** startTestConversation opens a test conversation with agent, as the signed-in admin. */
export function startTestConversation(api: ConsoleApi, agent: string) {
  return api.call(`/admin/agents/${encodeURIComponent(agent)}/test-conversations`, ConversationSchema, {
    method: 'POST',
    body: '{}',
  });
}

/** sendTestMessage adds the admin's message to their test conversation, which starts the agent's turn. */
export function sendTestMessage(api: ConsoleApi, id: string, content: string) {
  return api.call(`/admin/agents/conversations/${encodeURIComponent(id)}/test-messages`, MessageSchema, {
    method: 'POST',
    body: JSON.stringify({ content }),
  });
}

const PushSchema = z.object({ messages: z.array(MessageSchema), _message: MessageSchema });
export type ConversationPush = z.infer<typeof PushSchema>;

/**
 * followConversation reads the test conversation's live stream until signal aborts or it ends: onOpen once
 * it is open, then onPush with each step of the turn (the message that changed, and the newest messages).
 */
export async function followConversation(
  api: ConsoleApi,
  id: string,
  signal: AbortSignal,
  handlers: { onOpen(): void; onPush(push: ConversationPush): void },
): Promise<void> {
  const response = await api.stream(`/admin/agents/conversations/${encodeURIComponent(id)}/live`, signal);
  handlers.onOpen();
  await readServerEvents(response, (data) => handlers.onPush(PushSchema.parse(JSON.parse(data))));
}
