// What pushes carry: `{...conversation, _message}` for SDK 0.8.50 and older ones, tool calls cut to the
// SDK's documented bounds, the newest messages only; and who may read a conversation.
import { describe, expect, it } from 'vitest';
import {
  forPush,
  mayRead,
  newMessage,
  PUSH_ARGUMENTS_CHARS,
  PUSH_MESSAGES,
  PUSH_RESULTS_CHARS,
  pushPayload,
  type Conversation,
} from './conversation-view';

const user = (id: string, role = 'user') => ({
  kind: 'user' as const,
  user: { id, email: `${id}@x.test`, role, full_name: id.toUpperCase(), custom: {} },
});

describe('pushes', () => {
  it('cut tool-call arguments to 500 characters and results to 50, leaving the stored message whole', () => {
    const message = newMessage('assistant', 'ok', user('u1'), {
      tool_calls: [
        { id: 'c', name: 't', arguments_string: 'a'.repeat(900), status: 'success', results: 'r'.repeat(90) },
      ],
    });
    const pushed = forPush(message);
    expect(pushed.tool_calls[0]?.arguments_string).toHaveLength(PUSH_ARGUMENTS_CHARS);
    expect(pushed.tool_calls[0]?.results).toHaveLength(PUSH_RESULTS_CHARS);
    expect(message.tool_calls[0]?.arguments_string).toHaveLength(900);
  });

  it('carry the conversation (its newest messages) and the message as `_message`', () => {
    const messages = Array.from({ length: PUSH_MESSAGES + 5 }, (_, index) =>
      newMessage('user', `m${index}`, user('u1')),
    );
    const conversation: Conversation = {
      id: 'c1',
      app_id: 'a',
      agent_name: 'helper',
      created_by_id: 'u1',
      created_by: 'u1@x.test',
      created_date: '2026-01-01T00:00:00.000Z',
      updated_date: '2026-01-01T00:00:00.000Z',
      metadata: { topic: 't' },
      messages,
    };
    const payload = pushPayload(conversation, messages.at(-1) ?? newMessage('user', '', user('u1')));
    expect(payload).toMatchObject({ id: 'c1', agent_name: 'helper', metadata: { topic: 't' } });
    expect((payload.messages as unknown[]).length).toBe(PUSH_MESSAGES);
    expect(payload._message).toMatchObject({ content: `m${PUSH_MESSAGES + 4}` });
  });

  it('a user message records who wrote it; an agent message does not', () => {
    expect(newMessage('user', 'hi', user('u1')).metadata).toMatchObject({
      created_by_email: 'u1@x.test',
      created_by_full_name: 'U1',
    });
    expect(newMessage('assistant', 'hi', user('u1')).metadata).toMatchObject({ created_by_email: null });
  });
});

describe('mayRead', () => {
  it('lets the creator, admins and the service role read; nobody else', () => {
    expect(mayRead('u1', user('u1'))).toBe(true);
    expect(mayRead('u1', user('u2', 'admin'))).toBe(true);
    expect(mayRead('u1', { kind: 'service' })).toBe(true);
    expect(mayRead('u1', user('u2'))).toBe(false);
    expect(mayRead('u1', { kind: 'anonymous' })).toBe(false);
    expect(mayRead(null, user('u2'))).toBe(false);
  });
});
