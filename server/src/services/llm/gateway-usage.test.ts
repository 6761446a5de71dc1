import { describe, expect, it } from 'vitest';
import { completionUsage, createStreamUsage, promptTextOf } from './gateway-usage';

const chunk = (delta: object) => JSON.stringify({ choices: [{ index: 0, delta }] });

describe('promptTextOf', () => {
  it('is the messages’ text: strings and text parts, images left out', () => {
    const text = promptTextOf([
      { content: 'system says' },
      {
        content: [
          { type: 'text', text: 'look' },
          { type: 'image_url', image_url: { url: 'data:…' } },
        ],
      },
      { content: null },
    ]);
    expect(text).toBe('system says\nlook\n');
  });
});

describe('completionUsage', () => {
  it('is the usage the provider reported', () => {
    const body = {
      choices: [{ message: { content: 'hi' } }],
      usage: { prompt_tokens: 7, completion_tokens: 2 },
    };
    expect(completionUsage(body, 'x'.repeat(400))).toEqual({ prompt_tokens: 7, completion_tokens: 2 });
  });

  it('is estimated (4 characters a token) without one, tool call arguments counted', () => {
    const body = {
      choices: [
        { message: { content: 'abcdefgh' } },
        { message: { content: null, tool_calls: [{ function: { name: 'f', arguments: '{"q":"abcd"}' } }] } },
      ],
    };
    expect(completionUsage(body, 'x'.repeat(40))).toEqual({ prompt_tokens: 10, completion_tokens: 5 });
    expect(completionUsage('not a completion', 'abcd')).toEqual({ prompt_tokens: 1, completion_tokens: 0 });
  });
});

describe('createStreamUsage', () => {
  it('takes the final chunk’s usage and tells it is usage-only', () => {
    const usage = createStreamUsage('prompt');
    expect(usage.see(chunk({ content: 'Hello' }))).toEqual({ usageOnly: false });
    const final = JSON.stringify({ choices: [], usage: { prompt_tokens: 12, completion_tokens: 8 } });
    expect(usage.see(final)).toEqual({ usageOnly: true });
    expect(usage.see('[DONE]')).toEqual({ usageOnly: false });
    expect(usage.total()).toEqual({ prompt_tokens: 12, completion_tokens: 8 });
  });

  it('estimates from the streamed deltas without usage; a chunk with choices and usage is not usage-only', () => {
    const usage = createStreamUsage('x'.repeat(8));
    usage.see(chunk({ role: 'assistant' }));
    usage.see(chunk({ content: 'abcd' }));
    usage.see(chunk({ tool_calls: [{ index: 0, function: { arguments: 'efgh' } }] }));
    usage.see('{ not json');
    expect(usage.total()).toEqual({ prompt_tokens: 2, completion_tokens: 2 });
    const mixed = JSON.stringify({
      choices: [{ delta: { content: 'z' } }],
      usage: { prompt_tokens: 1, completion_tokens: 1 },
    });
    expect(usage.see(mixed)).toEqual({ usageOnly: false });
    expect(usage.total()).toEqual({ prompt_tokens: 1, completion_tokens: 1 });
  });

  it('ignores a usage that is not one (negative, text)', () => {
    const usage = createStreamUsage('abcd');
    usage.see(JSON.stringify({ choices: [], usage: { prompt_tokens: -1, completion_tokens: 'many' } }));
    expect(usage.total()).toEqual({ prompt_tokens: 1, completion_tokens: 0 });
  });
});
