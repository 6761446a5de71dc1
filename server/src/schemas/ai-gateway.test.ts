import { describe, expect, it } from 'vitest';
import { formatIssues } from '../lib/validation';
import { GatewayChatSchema, MAX_CHOICES, MAX_GATEWAY_MESSAGES, MAX_TOP_LEVEL_FIELDS } from './ai-gateway';

const user = (content: unknown) => ({ role: 'user', content });
/** problem is what parseInput would answer for body, or null when it passes. */
function problem(body: unknown): string | null {
  const result = GatewayChatSchema.safeParse(body);
  return result.success ? null : formatIssues(result.error);
}

describe('GatewayChatSchema', () => {
  it('passes OpenAI fields it does not read through as sent', () => {
    const body = {
      model: 'automatic',
      messages: [
        user('hi'),
        { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function' }] },
      ],
      temperature: 0.2,
      response_format: { type: 'json_object' },
      tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
    };
    expect(GatewayChatSchema.parse(body)).toEqual(body);
  });

  it('refuses a body that is not an object, or has no messages', () => {
    expect(problem('hi')).toBe('The body must be a JSON object: an OpenAI chat completion request');
    expect(problem(undefined)).toBe('The body must be a JSON object: an OpenAI chat completion request');
    expect(problem({ model: 'automatic' })).toBe('messages: is required: a list of messages');
    expect(problem({ messages: [] })).toBe('messages: must hold at least one message');
  });

  it('bounds what multiplies the work: messages, their nesting and parts, choices, fields', () => {
    const many = Array.from({ length: MAX_GATEWAY_MESSAGES + 1 }, () => user('x'));
    expect(problem({ messages: many })).toBe(`messages: must hold at most ${MAX_GATEWAY_MESSAGES} messages`);
    let deep: unknown = 'x';
    for (let level = 0; level < 10; level += 1) deep = [deep];
    expect(problem({ messages: [{ role: 'user', content: 'x', extra: deep }] })).toBe(
      'messages.0: must not nest deeper than 8 levels',
    );
    const parts = Array.from({ length: 101 }, () => ({ type: 'text', text: 'x' }));
    expect(problem({ messages: [user(parts)] })).toBe('messages.0.content: must have at most 100 parts');
    expect(problem({ messages: [user('x')], n: MAX_CHOICES + 1 })).toBe(`n: must be at most ${MAX_CHOICES}`);
    expect(problem({ messages: [user('x')], max_tokens: 1.5 })).toBe('max_tokens: must be a whole number');
    const fields = Object.fromEntries(Array.from({ length: MAX_TOP_LEVEL_FIELDS }, (_, i) => [`f${i}`, 1]));
    expect(problem({ messages: [user('x')], ...fields })).toBe(
      `The body has more than ${MAX_TOP_LEVEL_FIELDS} fields`,
    );
  });
});
