// The gateway service on a scripted provider: what reaches the provider (mapped model, bounded max_tokens,
// usage asked for when streaming), what the caller gets back, the usage recorded, and that every way a
// stream ends releases the call's in-flight slot.
import { describe, expect, it, vi } from 'vitest';
import { UpstreamError } from '../../lib/errors';
import type { Caller } from '../../rules/caller';
import type { GatewayChatInput } from '../../schemas/ai-gateway';
import type { LlmUsageEntry } from '../../store/llm-usage-store';
import { createAiGateway, type GatewayAnswer } from './ai-gateway';
import { createLlmAdmission } from './llm-admission';
import type { ForwardedAnswer, ForwardingProvider } from './provider-forward';
import { createTokenBudget, MAX_CALLS_IN_FLIGHT } from './token-budget';

const user: Caller = {
  kind: 'user',
  user: { id: 'u1', email: 'a@example.com', role: 'user', full_name: 'A', custom: {} },
};
const USAGE = { prompt_tokens: 12, completion_tokens: 8 };
const event = (value: unknown) => `data: ${typeof value === 'string' ? value : JSON.stringify(value)}\n\n`;
const delta = (content: string) => ({ choices: [{ index: 0, delta: { content } }] });

/** answerOf is a provider answer of pieces (a thrown Error breaks the stream there). */
function answerOf(contentType: string, pieces: (string | Error)[]): ForwardedAnswer {
  return {
    contentType,
    cancel: vi.fn(),
    body: (async function* () {
      for (const piece of pieces) {
        if (piece instanceof Error) throw piece;
        yield Buffer.from(piece);
      }
    })(),
  };
}

function setup(answers: ForwardedAnswer[], visibility = 'public_with_login') {
  const sent: { path: string; body: Record<string, unknown> | undefined }[] = [];
  const provider: ForwardingProvider = {
    async forward(path, body) {
      sent.push({
        path,
        body: body === undefined ? undefined : (JSON.parse(body) as Record<string, unknown>),
      });
      const answer = answers.shift();
      if (!answer) throw new Error('no answer scripted');
      return answer;
    },
  };
  const rows: LlmUsageEntry[] = [];
  const budget = createTokenBudget({
    store: { insertBatch: async (batch) => void rows.push(...batch), tokensSince: async () => 0 },
    dailyTokens: 1000,
  });
  const gateway = createAiGateway({
    admission: createLlmAdmission({ provider, budget, visibilityOf: async () => visibility }),
    budget,
    model: (name) => (name === 'gpt_5' ? 'provider-big' : 'provider-default'),
    maxOutputTokens: 1000,
    log: { warn: vi.fn() },
  });
  const recorded = async () => {
    await budget.flush();
    return rows.map(({ integration, model, caller_kind, prompt_tokens, completion_tokens }) => ({
      integration,
      model,
      caller_kind,
      prompt_tokens,
      completion_tokens,
    }));
  };
  /** slotsFree says whether the user may start MAX_CALLS_IN_FLIGHT calls now (nothing left in flight). */
  const slotsFree = () => {
    const releases = Array.from({ length: MAX_CALLS_IN_FLIGHT }, () => budget.enter('app', user, '1.2.3.4'));
    for (const release of releases) release();
    return true;
  };
  return { gateway, sent, recorded, slotsFree };
}

const call = (signal = new AbortController().signal) => ({ ip: '1.2.3.4', signal });
const input = (extra: Partial<GatewayChatInput> = {}): GatewayChatInput => ({
  model: 'gpt_5',
  messages: [{ role: 'user', content: 'hello there' }],
  ...extra,
});
async function eventsOf(answer: GatewayAnswer): Promise<string> {
  if (answer.kind !== 'events') throw new Error('expected a stream');
  let text = '';
  for await (const frame of answer.events) text += frame;
  return text;
}

describe('chat, not streamed', () => {
  it('sends the mapped model and a bounded max_tokens, answers the provider text, records usage', async () => {
    const completion = JSON.stringify({ choices: [{ message: { content: 'hi' } }], usage: USAGE });
    const { gateway, sent, recorded } = setup([answerOf('application/json', [completion])]);
    const answer = await gateway.chat('app', user, input({ max_tokens: 10 ** 9, top_p: 0.5 }), call());
    expect(answer).toEqual({ kind: 'json', text: completion });
    expect(sent).toEqual([
      {
        path: '/chat/completions',
        body: { model: 'provider-big', messages: input().messages, max_tokens: 1000, top_p: 0.5 },
      },
    ]);
    expect(await recorded()).toEqual([
      { integration: 'AIGateway', model: 'provider-big', caller_kind: 'user', ...USAGE },
    ]);
  });

  it('refuses an answer that is not JSON, or nests too deeply, with a safe message', async () => {
    const { gateway, slotsFree } = setup([
      answerOf('text/html', ['<html>']),
      answerOf('application/json', ['['.repeat(100) + ']'.repeat(100)]),
    ]);
    for (let attempt = 0; attempt < 2; attempt += 1) {
      await expect(gateway.chat('app', user, input(), call())).rejects.toThrow(
        'The LLM provider answered something that is not JSON',
      );
    }
    expect(slotsFree()).toBe(true);
  });

  it('asks anonymous callers to sign in unless the app is public without login', async () => {
    const { gateway, sent } = setup([]);
    await expect(gateway.chat('app', { kind: 'anonymous' }, input(), call())).rejects.toThrow(/sign in/);
    await expect(gateway.models('app', { kind: 'anonymous' }, call())).rejects.toThrow(/sign in/);
    expect(sent).toEqual([]);
  });
});

describe('chat, streamed', () => {
  const usageChunk = { choices: [], usage: USAGE };
  const stream = [event(delta('Hel')), event(delta('lo')), event(usageChunk), event('[DONE]')];

  it('relays the events, asks for usage, drops the usage chunk the caller did not ask for', async () => {
    const { gateway, sent, recorded, slotsFree } = setup([answerOf('text/event-stream', stream)]);
    const text = await eventsOf(await gateway.chat('app', user, input({ stream: true }), call()));
    expect(text).toBe(event(delta('Hel')) + event(delta('lo')) + event('[DONE]'));
    expect(sent[0]?.body?.stream_options).toEqual({ include_usage: true });
    expect(await recorded()).toEqual([
      { integration: 'AIGateway', model: 'provider-big', caller_kind: 'user', ...USAGE },
    ]);
    expect(slotsFree()).toBe(true);
  });

  it('keeps the usage chunk for a caller that asked for it', async () => {
    const { gateway } = setup([answerOf('text/event-stream; charset=utf-8', stream)]);
    const asked = input({ stream: true, stream_options: { include_usage: true } });
    expect(await eventsOf(await gateway.chat('app', user, asked, call()))).toBe(stream.join(''));
  });

  it('estimates usage without a usage chunk; a broken stream ends with a safe error event', async () => {
    const broken = [event(delta('abcd')), new UpstreamError("The LLM provider's answer broke off")];
    const { gateway, recorded, slotsFree } = setup([answerOf('text/event-stream', broken)]);
    const text = await eventsOf(await gateway.chat('app', user, input({ stream: true }), call()));
    expect(text).toBe(
      event(delta('abcd')) +
        event({
          error: { message: "The LLM provider's answer broke off", type: 'server_error', code: null },
        }),
    );
    // 'hello there' is 11 characters: 3 tokens; 'abcd' 1.
    expect(await recorded()).toEqual([
      {
        integration: 'AIGateway',
        model: 'provider-big',
        caller_kind: 'user',
        prompt_tokens: 3,
        completion_tokens: 1,
      },
    ]);
    expect(slotsFree()).toBe(true);
  });

  it('refuses a 2xx that is not a stream, and ends a stream nobody reads when the client goes away', async () => {
    const json = answerOf('application/json', ['{}']);
    const { gateway, recorded, slotsFree } = setup([json, answerOf('text/event-stream', stream)]);
    await expect(gateway.chat('app', user, input({ stream: true }), call())).rejects.toThrow(/with a stream/);
    expect(json.cancel).toHaveBeenCalled();
    const client = new AbortController();
    await gateway.chat('app', user, input({ stream: true }), call(client.signal));
    client.abort();
    expect(slotsFree()).toBe(true);
    expect(await recorded()).toHaveLength(1);
  });
});

describe('models', () => {
  it('passes the provider list through, spending no tokens', async () => {
    const list = '{"object":"list","data":[{"id":"double","object":"model"}]}';
    const { gateway, sent, recorded } = setup([answerOf('application/json', [list])]);
    expect(await gateway.models('app', user, call())).toEqual({ kind: 'json', text: list });
    expect(sent).toEqual([{ path: '/models', body: undefined }]);
    expect(await recorded()).toEqual([]);
  });
});
