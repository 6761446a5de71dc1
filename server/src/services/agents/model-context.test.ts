// What the model reads: instructions with skills, tool calls followed by their results, and the oldest
// messages dropped first when the conversation outgrows the token budget.
import { describe, expect, it } from 'vitest';
import type { AgentDef } from '../../project/agent-loader';
import { newMessage, type AgentMessage } from './conversation-view';
import { modelContext, systemPrompt } from './model-context';

const user = {
  kind: 'user' as const,
  user: { id: 'u1', email: 'a@x.test', role: 'user', full_name: 'A', custom: {} },
};
const said = (role: 'user' | 'assistant', content: string, extra: Partial<AgentMessage> = {}) =>
  newMessage(role, content, user, extra);

describe('modelContext', () => {
  it('turns tool calls into an assistant message followed by one tool result per call', () => {
    const history = [
      said('user', 'add milk', {
        custom_context: [{ message: 'page', data: { at: 'home' } }],
        file_urls: ['https://f/1'],
      }),
      said('assistant', '', {
        tool_calls: [
          {
            id: 'c1',
            name: 'create_task',
            arguments_string: '{"title":"milk"}',
            status: 'success',
            results: '{"id":"t1"}',
          },
        ],
      }),
      said('assistant', 'Added.'),
    ];
    const messages = modelContext('be brief', history, 10_000);
    expect(messages).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'add milk\n\nContext: page {"at":"home"}\n\nAttached files:\nhttps://f/1' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'create_task', arguments: '{"title":"milk"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: '{"id":"t1"}' },
      { role: 'assistant', content: 'Added.' },
    ]);
  });

  it('drops the oldest messages first, keeping a call with its results, and always keeps the newest', () => {
    const long = 'x'.repeat(4_000); // about 1,000 tokens
    const history = [
      said('user', `old ${long}`),
      said('assistant', '', {
        tool_calls: [{ id: 'c1', name: 't', arguments_string: '{}', status: 'success', results: long }],
      }),
      said('user', 'newest question'),
    ];
    const kept = modelContext('s', history, 1_200);
    expect(kept.map((message) => message.role)).toEqual(['system', 'assistant', 'tool', 'user']);
    const newestOnly = modelContext('s', [said('user', `${long}${long}${long} newest`)], 500);
    expect(newestOnly).toHaveLength(2);
    expect(String(newestOnly[1]?.content).endsWith('newest')).toBe(true);
    expect(String(newestOnly[1]?.content).length).toBeLessThan(12_000);
  });
});

describe('systemPrompt', () => {
  it('adds the selected skills’ names and descriptions, and the date', () => {
    const agent = { name: 'helper', instructions: 'Help with tasks.', skills: ['tone'] } as AgentDef;
    const skills = new Map([
      ['tone', { name: 'tone', description: 'How to word replies', body: 'secret body' }],
    ]);
    const prompt = systemPrompt(agent, skills, new Date('2026-11-28T10:00:00Z'));
    expect(prompt).toContain('Help with tasks.');
    expect(prompt).toContain('- tone: How to word replies');
    expect(prompt).not.toContain('secret body');
    expect(prompt).toContain('Today is 2026-11-28');
  });
});
