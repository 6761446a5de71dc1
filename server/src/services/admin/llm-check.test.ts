// The console's LLM check: one call asking for one token, its usage recorded; clicks during a check share
// it; a failure is a safe sentence and spends nothing; no provider calls nothing.
import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../../lib/errors';
import type { ChatRequest } from '../llm/llm-provider';
import type { LlmUsageEntry } from '../../store/llm-usage-store';
import { CHECK_MAX_TOKENS, CHECK_REUSE_MS, createLlmCheck } from './llm-check';

function providerAnswering(
  answer: () => Promise<{ content: string; usage: { prompt_tokens: number; completion_tokens: number } }>,
) {
  const requests: ChatRequest[] = [];
  return { requests, chat: (request: ChatRequest) => (requests.push(request), answer()) };
}

describe('createLlmCheck', () => {
  it('asks for one token, records the usage and keeps the outcome', async () => {
    const provider = providerAnswering(async () => ({
      content: 'OK',
      usage: { prompt_tokens: 3, completion_tokens: 1 },
    }));
    const recorded: LlmUsageEntry[] = [];
    const check = createLlmCheck({
      appId: 'a',
      provider,
      model: 'm',
      record: (_app, entry) => recorded.push(entry),
    });
    expect(check.last()).toBeNull();
    const [first, second] = await Promise.all([check.check(), check.check()]);
    expect(provider.requests).toHaveLength(1);
    expect(provider.requests[0]).toMatchObject({ model: 'm', maxTokens: CHECK_MAX_TOKENS });
    expect(first).toMatchObject({ ok: true, model: 'm', tokens: 4, problem: null });
    expect(second).toBe(first);
    expect(check.last()).toBe(first);
    expect(recorded).toEqual([
      {
        integration: 'ConsoleCheck',
        model: 'm',
        caller_kind: 'service',
        user_id: null,
        prompt_tokens: 3,
        completion_tokens: 1,
      },
    ]);
  });

  it('answers a check within CHECK_REUSE_MS of the last with that outcome, and calls again after', async () => {
    let clock = 1_000_000;
    const provider = providerAnswering(async () => ({
      content: 'OK',
      usage: { prompt_tokens: 3, completion_tokens: 1 },
    }));
    const check = createLlmCheck({
      appId: 'a',
      provider,
      model: 'm',
      record: () => undefined,
      now: () => clock,
    });
    const first = await check.check();
    clock += CHECK_REUSE_MS - 1;
    expect(await check.check()).toBe(first);
    expect(provider.requests).toHaveLength(1);
    clock += 1;
    expect(await check.check()).not.toBe(first);
    expect(provider.requests).toHaveLength(2);
  });

  it('says why a check failed and records nothing', async () => {
    const provider = providerAnswering(() =>
      Promise.reject(new UpstreamError('The LLM provider could not be reached')),
    );
    const recorded: LlmUsageEntry[] = [];
    const check = createLlmCheck({
      appId: 'a',
      provider,
      model: 'm',
      record: (_app, entry) => recorded.push(entry),
    });
    expect(await check.check()).toMatchObject({
      ok: false,
      problem: 'The LLM provider could not be reached',
    });
    expect(recorded).toEqual([]);
  });

  it('calls nothing without a provider', async () => {
    const check = createLlmCheck({ appId: 'a', provider: null, model: 'm', record: () => undefined });
    expect(await check.check()).toBeNull();
    expect(check.last()).toBeNull();
  });
});
