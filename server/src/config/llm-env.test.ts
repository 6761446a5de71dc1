import { describe, expect, it } from 'vitest';
import { parseServerEnv } from './server-env';

describe('LLM settings', () => {
  it('default to no provider, a bounded day and the usual models', () => {
    const config = parseServerEnv({}, '/repo', 'a');
    expect(config.LLM_PROVIDER_URL).toBeUndefined();
    expect(config.WEB_SEARCH_URL).toBeUndefined();
    expect(config).toMatchObject({
      LLM_MODEL: 'gpt-4o-mini',
      LLM_MODEL_MAP: {},
      LLM_TRANSCRIBE_MODEL: 'whisper-1',
      LLM_TIMEOUT_MS: 60_000,
      LLM_DAILY_TOKEN_BUDGET: 1_000_000,
    });
  });

  it('read a provider base URL (trailing slash dropped), a key and a model map', () => {
    const config = parseServerEnv(
      {
        LLM_PROVIDER_URL: 'http://localhost:11434/v1/',
        LLM_API_KEY: 'sk-x',
        LLM_MODEL: 'llama3.2',
        LLM_MODEL_MAP: 'gemini_3_flash=llama3.2,gpt_5=qwen2.5:14b',
        LLM_DAILY_TOKEN_BUDGET: '5000',
      },
      '/repo',
      'a',
    );
    expect(config.LLM_PROVIDER_URL).toBe('http://localhost:11434/v1');
    expect(config.LLM_MODEL_MAP).toEqual({ gemini_3_flash: 'llama3.2', gpt_5: 'qwen2.5:14b' });
    expect(config.LLM_DAILY_TOKEN_BUDGET).toBe(5000);
  });

  it('name each bad value', () => {
    expect(() =>
      parseServerEnv(
        { LLM_PROVIDER_URL: 'ftp://x/v1', LLM_MODEL_MAP: 'gpt_5', LLM_DAILY_TOKEN_BUDGET: '0' },
        '/repo',
        'a',
      ),
    ).toThrow(/LLM_PROVIDER_URL[\s\S]*LLM_MODEL_MAP[\s\S]*LLM_DAILY_TOKEN_BUDGET/);
  });
});
