import { describe, expect, it, vi } from 'vitest';
import type { Caller } from '../../rules/caller';
import type { LlmFiles } from './llm-files';
import type { ChatRequest, LlmProvider } from './llm-provider';
import { createLlmService, type LlmServiceDeps } from './llm-service';
import { createTokenBudget } from './token-budget';

const user: Caller = {
  kind: 'user',
  user: { id: 'u1', email: 'a@example.com', role: 'user', full_name: 'A', custom: {} },
};
const schema = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] };

function setup(answers: string[], overrides: Partial<LlmServiceDeps> = {}) {
  const requests: ChatRequest[] = [];
  const provider: LlmProvider = {
    host: 'double',
    async chat(request) {
      requests.push(request);
      return { content: answers.shift() ?? '', usage: { prompt_tokens: 10, completion_tokens: 5 } };
    },
    transcribe: async () => ({ text: 'spoken', usage: { prompt_tokens: 0, completion_tokens: 2 } }),
    turn: async () => ({ content: '', toolCalls: [], usage: { prompt_tokens: 0, completion_tokens: 0 } }),
  };
  const rows: object[] = [];
  const insertBatch = vi.fn(async (batch: object[]) => void rows.push(...batch));
  const files: LlmFiles = { read: async () => ({ images: [], text: '' }) };
  const budget = createTokenBudget({ store: { insertBatch, tokensSince: async () => 0 }, dailyTokens: 1000 });
  const service = createLlmService({
    provider,
    budget,
    usage: { recent: async () => [] },
    files,
    readFileUrl: async () => ({
      bytes: Buffer.from('x'),
      contentType: 'audio/webm',
      filename: 'a.webm',
      source: 'stored',
    }),
    audioLimits: { maxBytes: 1000, timeoutMs: 1000 },
    model: (name) => name ?? 'default-model',
    transcribeModel: 'whisper-1',
    visibilityOf: async () => 'public_with_login',
    log: { info: vi.fn(), warn: vi.fn() },
    ...overrides,
  });
  /** recorded writes the queued usage and lists every row written. */
  const recorded = async () => {
    await budget.flush();
    return rows;
  };
  return { service, requests, recorded };
}

describe('InvokeLLM', () => {
  it('answers a string and records the usage with model and caller', async () => {
    const { service, recorded } = setup(['hello']);
    expect(await service.invoke('app', user, { prompt: 'hi' })).toBe('hello');
    expect(await recorded()).toEqual([
      {
        app_id: 'app',
        created_at: expect.any(String),
        integration: 'InvokeLLM',
        model: 'default-model',
        caller_kind: 'user',
        user_id: 'u1',
        prompt_tokens: 10,
        completion_tokens: 5,
      },
    ]);
  });

  it('returns the validated object, asking for structured output', async () => {
    const { service, requests } = setup(['```json\n{"n": 3}\n```']);
    expect(await service.invoke('app', user, { prompt: 'count', response_json_schema: schema })).toEqual({
      n: 3,
    });
    expect(requests[0]?.jsonSchema).toEqual(schema);
  });

  it('repairs once, then is an upstream error naming what did not validate', async () => {
    const repaired = setup(['{"n": "x"}', '{"n": 4}']);
    expect(await repaired.service.invoke('app', user, { prompt: 'p', response_json_schema: schema })).toEqual(
      { n: 4 },
    );
    expect(JSON.stringify(repaired.requests[1]?.messages)).toContain('/n must be integer');
    const failing = setup(['nope', '{"m": 1}']);
    await expect(
      failing.service.invoke('app', user, { prompt: 'p', response_json_schema: schema }),
    ).rejects.toThrow(/after one retry: \(root\) must have required property 'n'/);
    // Both attempts cost tokens: both are recorded.
    expect(await failing.recorded()).toEqual([
      expect.objectContaining({ prompt_tokens: 20, completion_tokens: 10 }),
    ]);
  });

  it('refuses an answer nested past the depth limit at once (a 502, no repair), never a stack overflow', async () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const { service, requests } = setup([deep, '[]']);
    await expect(
      service.invoke('app', user, { prompt: 'p', response_json_schema: { type: 'array' } }),
    ).rejects.toMatchObject({
      name: 'UpstreamError',
      message: expect.stringMatching(/deeper than 64 levels/),
    });
    expect(requests).toHaveLength(1);
  });

  it('refuses a recursive schema before calling the provider', async () => {
    const { service, requests } = setup(['{}']);
    const recursive = { $defs: { n: { properties: { next: { $ref: '#/$defs/n' } } } }, $ref: '#/$defs/n' };
    await expect(
      service.invoke('app', user, { prompt: 'p', response_json_schema: recursive }),
    ).rejects.toMatchObject({ name: 'InvalidInputError', message: expect.stringMatching(/is recursive/) });
    expect(requests).toHaveLength(0);
  });

  it('refuses anonymous callers unless the app is public without login, and 503s without a provider', async () => {
    const { service } = setup(['x']);
    await expect(service.invoke('app', { kind: 'anonymous' }, { prompt: 'p' })).rejects.toMatchObject({
      name: 'UnauthorizedError',
    });
    const open = setup(['x'], { visibilityOf: async () => 'public_without_login' });
    expect(await open.service.invoke('app', { kind: 'anonymous' }, { prompt: 'p' })).toBe('x');
    const none = setup([], { provider: null });
    await expect(none.service.invoke('app', user, { prompt: 'p' })).rejects.toThrow(/LLM_PROVIDER_URL/);
  });

  it('ignores add_context_from_internet without WEB_SEARCH_URL, saying so once', async () => {
    const info = vi.fn();
    const { service, requests } = setup(['a', 'b'], { log: { info, warn: vi.fn() } });
    await service.invoke('app', user, { prompt: 'p', add_context_from_internet: true });
    await service.invoke('app', user, { prompt: 'p', add_context_from_internet: true });
    expect(info).toHaveBeenCalledTimes(1);
    expect(requests[0]?.messages).toEqual([{ role: 'user', content: 'p' }]);
  });

  it('adds web results with their URLs when a search is configured', async () => {
    const search = async () => [{ title: 'T', url: 'https://t.example/', content: 'fact' }];
    const { service, requests } = setup(['a'], { search });
    await service.invoke('app', user, { prompt: 'p', add_context_from_internet: true });
    expect(JSON.stringify(requests[0]?.messages)).toContain('https://t.example/');
  });
});

describe('TranscribeAudio', () => {
  it('answers the text and records the call', async () => {
    const { service, recorded } = setup([]);
    expect(await service.transcribe('app', user, { url: '/x' })).toBe('spoken');
    expect(await recorded()).toEqual([
      expect.objectContaining({ integration: 'TranscribeAudio', model: 'whisper-1' }),
    ]);
  });
});
