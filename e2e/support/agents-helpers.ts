import { join } from 'node:path';
import { AUTH_ENV, type userClient } from './auth-helpers';
import { DEFAULT_APP_ID } from './sdk-client';
import { REPO_ROOT, type RunningServer } from './server-process';

/** AGENTS_PROJECT is the agents fixture (e2e/fixtures/agents/base44): Task, Announcement, whoami, task_helper. */
export const AGENTS_PROJECT = join(REPO_ROOT, 'e2e/fixtures/agents/base44');

/** agentsEnv starts a server on the agents fixture with the LLM provider at providerUrl (none: unset). */
export function agentsEnv(providerUrl?: string): Record<string, string> {
  return {
    ...AUTH_ENV,
    APP_ID: DEFAULT_APP_ID,
    PROJECT_DIR: AGENTS_PROJECT,
    INTEGRATION_RATE_LIMIT_PER_MINUTE: '1000',
    INTEGRATION_RATE_LIMIT_PER_USER_PER_MINUTE: '1000',
    ...(providerUrl ? { LLM_PROVIDER_URL: providerUrl } : {}),
  };
}

/** ToolCall and AgentMessage are the SDK's message shapes, as the tests read them. */
export interface ToolCall {
  id: string;
  name: string;
  arguments_string: string;
  status: string;
  results: string | null;
}
export interface AgentMessage {
  id: string;
  role: string;
  content: unknown;
  status?: string;
  tool_calls: ToolCall[];
  usage: { prompt_tokens: number; completion_tokens: number } | null;
  model: string | null;
  metadata: Record<string, unknown>;
}
export interface Conversation {
  id: string;
  agent_name: string;
  created_by_id: string | null;
  metadata: Record<string, unknown>;
  messages: AgentMessage[];
}

type Client = ReturnType<typeof userClient>;

/** present is value, or a failed test when it is missing. */
export function present<T>(value: T | null | undefined, what = 'value'): T {
  if (value === null || value === undefined) throw new Error(`expected a ${what}`);
  return value;
}

/** lastMessage is the conversation's newest message (a failed test when it has none). */
export const lastMessage = (conversation: Conversation | undefined): AgentMessage =>
  present(present(conversation, 'conversation').messages.at(-1), 'message');

/** resultsOf is a tool call's parsed results (a failed test when it has none). */
export const resultsOf = (call: ToolCall | undefined): unknown =>
  JSON.parse(present(present(call, 'tool call').results, 'tool result'));

/** finished says whether the conversation's turn ended: its last message is the agent's, no longer running. */
export function finished(conversation: Conversation): boolean {
  const last = conversation.messages.at(-1);
  return last?.role === 'assistant' && last.status !== 'running';
}

/** turnDone polls the conversation until its turn ended, and returns it. */
export async function turnDone(client: Client, id: string, timeoutMs = 20_000): Promise<Conversation> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const conversation = (await client.agents.getConversation(id)) as unknown as Conversation;
    if (finished(conversation)) return conversation;
    if (Date.now() > deadline)
      throw new Error(`the turn of ${id} did not end: ${JSON.stringify(conversation.messages.at(-1))}`);
    await new Promise((wait) => setTimeout(wait, 100));
  }
}

/** ask adds a user message and waits for the agent's final answer; returns the whole conversation. */
export async function ask(
  client: Client,
  conversation: { id: string },
  content: string,
): Promise<Conversation> {
  await client.agents.addMessage(conversation as never, { role: 'user', content });
  return turnDone(client, conversation.id);
}

/** startConversation creates a task_helper conversation as client. */
export async function startConversation(
  client: Client,
  metadata?: Record<string, unknown>,
): Promise<Conversation> {
  return (await client.agents.createConversation({
    agent_name: 'task_helper',
    ...(metadata ? { metadata } : {}),
  })) as unknown as Conversation;
}

/** conversationsUrl is the agents API path of server's app. */
export const conversationsUrl = (server: RunningServer) =>
  `${server.url}/api/apps/${DEFAULT_APP_ID}/agents/conversations`;
