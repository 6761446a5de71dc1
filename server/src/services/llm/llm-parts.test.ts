import { describe, expect, it, vi } from 'vitest';
import { parseModelMap } from '../../config/llm-env';
import { chatAnswerOf } from './llm-provider';
import { imageTypeOf } from './llm-files';
import { createModelNames } from './model-names';
import { createLlmFiles, MAX_FILES_BYTES } from './llm-files';
import { userCaller, type Caller } from '../../rules/caller';
import { createUsageCounter } from '../limits/usage-counter';
import { createTokenBudget } from './token-budget';
import { contextFrom, searchResultsOf } from './web-search';

describe('model names', () => {
  it('maps known names, gives the default for automatic and unknown ones, reporting each unknown once', () => {
    const onUnknown = vi.fn();
    const model = createModelNames('llama3.2', { gpt_5: 'gpt-4o' }, onUnknown);
    expect(model(undefined)).toBe('llama3.2');
    expect(model('automatic')).toBe('llama3.2');
    expect(model('gpt_5')).toBe('gpt-4o');
    expect(model('gemini_3_flash')).toBe('llama3.2');
    expect(model('gemini_3_flash')).toBe('llama3.2');
    expect(onUnknown).toHaveBeenCalledTimes(1);
    expect(model('toString')).toBe('llama3.2');
  });

  it('reads LLM_MODEL_MAP pairs and refuses malformed ones', () => {
    expect(parseModelMap('gemini_3_flash=llama3.2, gpt_5=gpt-4o')).toEqual({
      gemini_3_flash: 'llama3.2',
      gpt_5: 'gpt-4o',
    });
    expect(parseModelMap('')).toEqual({});
    expect(parseModelMap('a=b=c')).toBeNull();
    expect(parseModelMap('nomodel')).toBeNull();
  });
});

const service: Caller = { kind: 'service' };
const userRow = (id: string) => ({ id, email: `${id}@example.com`, role: 'user', full_name: id, custom: {} });

describe('token budget', () => {
  it('refuses once the day is spent, with Retry-After until UTC midnight, and counts recorded calls', async () => {
    const now = Date.UTC(2026, 0, 1, 23, 0, 0);
    const store = { insertBatch: vi.fn(async () => undefined), tokensSince: vi.fn(async () => 90) };
    const budget = createTokenBudget({ store, dailyTokens: 100, now: () => now, refreshMs: 60_000 });
    await budget.check('app', service);
    budget.record('app', {
      integration: 'InvokeLLM',
      model: 'm',
      caller_kind: 'user',
      user_id: 'u1',
      prompt_tokens: 6,
      completion_tokens: 4,
    });
    await expect(budget.check('app', service)).rejects.toMatchObject({ retryAfterSeconds: 3600 });
    expect(store.tokensSince).toHaveBeenCalledTimes(1);
    // Written later, in a batch; counted at once and still after the sum is read again.
    await budget.flush();
    expect(store.insertBatch).toHaveBeenCalledTimes(1);
    await expect(budget.check('app', service)).rejects.toMatchObject({ retryAfterSeconds: 3600 });
  });

  it('gives each user and each IP a share, and keeps a reserve only the service role may spend', async () => {
    let spent = 0;
    const store = { insertBatch: vi.fn(async () => undefined), tokensSince: vi.fn(async () => spent) };
    const budget = createTokenBudget({
      store,
      dailyTokens: 1000,
      refreshMs: 0,
      shares: { reservePercent: 20, userDailyTokens: 100, ipDailyTokens: 150, usage: createUsageCounter() },
    });
    const call = (user: Caller, ip: string, tokens: number) => {
      budget.record(
        'app',
        {
          integration: 'InvokeLLM',
          model: 'm',
          caller_kind: user.kind,
          user_id: user.kind === 'user' ? user.user.id : null,
          prompt_tokens: tokens,
          completion_tokens: 0,
        },
        ip,
      );
    };
    const ada = userCaller(userRow('ada'));
    const bob = userCaller(userRow('bob'));
    await budget.check('app', ada, '192.0.2.1');
    call(ada, '192.0.2.1', 100);
    await new Promise((resolve) => setTimeout(resolve, 0));
    await expect(budget.check('app', ada, '192.0.2.9')).rejects.toThrow('LLM_USER_DAILY_TOKENS');
    // Another account on the same IP: the IP's share (150) is nearly spent, then spent.
    await budget.check('app', bob, '192.0.2.1');
    call(bob, '192.0.2.1', 60);
    await new Promise((resolve) => setTimeout(resolve, 0));
    await expect(budget.check('app', bob, '192.0.2.1')).rejects.toThrow('LLM_IP_DAILY_TOKENS');
    await expect(budget.check('app', { kind: 'anonymous' }, '192.0.2.1')).rejects.toThrow(
      'LLM_IP_DAILY_TOKENS',
    );
    // The app's users reached 80 %: they are refused, the service role is not, until 100 %.
    spent = 800;
    await expect(budget.check('app', { kind: 'anonymous' }, '192.0.2.77')).rejects.toThrow(
      'LLM_SERVICE_RESERVE_PERCENT',
    );
    await budget.check('app', service);
    spent = 1000;
    await expect(budget.check('app', service)).rejects.toThrow('LLM_DAILY_TOKEN_BUDGET');
  });
});

describe('calls in flight', () => {
  it('lets a user or an IP run two calls at once, then refuses until one ends; the service role is not counted', () => {
    const store = { insertBatch: vi.fn(async () => undefined), tokensSince: vi.fn(async () => 0) };
    const budget = createTokenBudget({ store, dailyTokens: 1000 });
    const ada = userCaller(userRow('ada'));
    const first = budget.enter('app', ada, '192.0.2.1');
    budget.enter('app', ada, '192.0.2.2');
    expect(() => budget.enter('app', ada, '192.0.2.3')).toThrow('2 LLM calls running');
    expect(() => budget.enter('app', { kind: 'anonymous' }, '192.0.2.1')).not.toThrow();
    expect(() => budget.enter('app', { kind: 'anonymous' }, '192.0.2.1')).toThrow('2 LLM calls running');
    for (let i = 0; i < 5; i++) budget.enter('app', service);
    first();
    first();
    expect(() => budget.enter('app', ada, '192.0.2.4')).not.toThrow();
  });
});

describe('provider answers and helpers', () => {
  it('reads a chat completion, estimating usage when none is reported', () => {
    const body = {
      choices: [{ message: { content: 'hello' } }],
      usage: { prompt_tokens: 7, completion_tokens: 1 },
    };
    expect(chatAnswerOf(body, 'hi')).toEqual({
      content: 'hello',
      usage: { prompt_tokens: 7, completion_tokens: 1 },
    });
    expect(chatAnswerOf({ choices: [{ message: { content: 'abcdefgh' } }] }, 'abcd')?.usage).toEqual({
      prompt_tokens: 1,
      completion_tokens: 2,
    });
    expect(chatAnswerOf({ error: 'x' }, '')).toBeNull();
  });

  it('tells images by their bytes', () => {
    expect(imageTypeOf(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe('image/png');
    expect(imageTypeOf(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(imageTypeOf(Buffer.from('RIFF0000WEBPVP8 '))).toBe('image/webp');
    expect(imageTypeOf(Buffer.from('%PDF-1.7'))).toBeNull();
  });

  it('keeps the top http(s) search results and makes them citable context', () => {
    const results = searchResultsOf({
      results: [
        { title: 'A', url: 'https://a.example/x', content: 'about a' },
        { title: 'bad', url: 'javascript:alert(1)', content: '' },
      ],
    });
    expect(results).toEqual([{ title: 'A', url: 'https://a.example/x', content: 'about a' }]);
    expect(contextFrom(results)).toContain('https://a.example/x');
    expect(searchResultsOf(null)).toEqual([]);
  });
});

describe('file_urls', () => {
  it('refuses a call whose files add up past MAX_FILES_BYTES, reading them one at a time', async () => {
    const png = Buffer.from('89504e470d0a1a0a', 'hex');
    let reads = 0;
    const files = createLlmFiles({
      limits: { maxBytes: 10 * 1024 * 1024, timeoutMs: 1000 },
      readFileUrl: async (_appId, url) => {
        reads += 1;
        return {
          bytes: Buffer.concat([png, Buffer.alloc(8 * 1024 * 1024)]),
          contentType: 'image/png',
          filename: url,
          source: 'stored',
        };
      },
    });
    await expect(files.read('app', ['a.png', 'b.png'])).resolves.toMatchObject({ images: [{}, {}] });
    reads = 0;
    await expect(files.read('app', ['a.png', 'b.png', 'c.png', 'd.png'])).rejects.toThrow(
      new RegExp(`file_urls add up to more than ${MAX_FILES_BYTES / 1024 / 1024} MB`),
    );
    expect(reads).toBe(3); // stopped at the file that crossed the cap
  });
});
