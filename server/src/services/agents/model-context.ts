// What the model reads at each step of a turn: the agent's instructions (with its skills' names and
// descriptions), then the conversation so far as chat messages (tool calls followed by their results),
// trimmed oldest first to a token budget so a long conversation never outgrows the model's context.
import type { AgentDef, AgentSkill } from '../../project/agent-loader';
import { estimateTokens } from '../llm/llm-provider';
import type { TurnMessage } from '../llm/chat-turn';
import type { AgentMessage } from './conversation-view';

const textOf = (content: unknown): string =>
  typeof content === 'string' ? content : JSON.stringify(content ?? '');

/** systemPrompt is the agent's instructions, its skills, and who it acts for. */
export function systemPrompt(agent: AgentDef, skills: ReadonlyMap<string, AgentSkill>, today: Date): string {
  const parts = [agent.instructions.trim() || `You are ${agent.name}, an assistant in this app.`];
  const selected = agent.skills
    .map((name) => skills.get(name))
    .filter((skill): skill is AgentSkill => !!skill);
  if (selected.length > 0) {
    parts.push(
      `You have these skills; call read_skill with a skill's name to read it in full before using it:\n${selected
        .map((skill) => `- ${skill.name}: ${skill.description}`)
        .join('\n')}`,
    );
  }
  parts.push(
    `Today is ${today.toISOString().slice(0, 10)}. Tools act with the permissions of the user you are talking to: when one fails, say so plainly.`,
  );
  return parts.join('\n\n');
}

/** userText is a user message as the model reads it: its content, context and attached files. */
function userText(message: AgentMessage): string {
  const parts = [textOf(message.content)];
  for (const item of message.custom_context) {
    const context = item as { message?: unknown; data?: unknown };
    parts.push(
      `Context: ${[context.message, context.data === undefined ? '' : JSON.stringify(context.data)].filter(Boolean).join(' ')}`,
    );
  }
  if (message.file_urls.length > 0) parts.push(`Attached files:\n${message.file_urls.join('\n')}`);
  return parts.join('\n\n');
}

/** asTurnMessages is one stored message as the chat messages the model reads (one group, kept or cut whole). */
function asTurnMessages(message: AgentMessage): TurnMessage[] {
  if (message.role === 'user') return [{ role: 'user', content: userText(message) }];
  const content = textOf(message.content);
  if (message.tool_calls.length === 0) return content ? [{ role: 'assistant', content }] : [];
  return [
    {
      role: 'assistant',
      content: content || null,
      tool_calls: message.tool_calls.map((call) => ({
        id: call.id,
        type: 'function' as const,
        function: { name: call.name, arguments: call.arguments_string },
      })),
    },
    ...message.tool_calls.map((call): TurnMessage => ({
      role: 'tool',
      tool_call_id: call.id,
      content: call.results ?? JSON.stringify({ error: 'The call did not finish' }),
    })),
  ];
}

const tokensOf = (messages: TurnMessage[]) => estimateTokens(JSON.stringify(messages));

/**
 * modelContext is the system prompt and the newest messages that fit maxTokens (the newest always kept,
 * cut if it alone is over).
 */
export function modelContext(
  system: string,
  history: readonly AgentMessage[],
  maxTokens: number,
): TurnMessage[] {
  const groups = history.map(asTurnMessages).filter((group) => group.length > 0);
  let budget = maxTokens - estimateTokens(system);
  const kept: TurnMessage[][] = [];
  for (let index = groups.length - 1; index >= 0; index--) {
    const group = groups[index] as TurnMessage[];
    const cost = tokensOf(group);
    if (cost > budget && kept.length > 0) break;
    kept.unshift(group);
    budget -= cost;
  }
  const messages = kept.flat();
  // A tool result must follow its call: a cut that begins inside a group never happens (groups are whole),
  // but a history may begin with the agent's own message; models accept that.
  const first = messages[0];
  if (first && first.role === 'user' && budget < 0) {
    const chars = Math.max(1_000, (maxTokens - estimateTokens(system)) * 4);
    messages[0] = { role: 'user', content: first.content.slice(-chars) };
  }
  return [{ role: 'system', content: system }, ...messages];
}
