// Migration 20 and the LLM usage store on PGlite and (with DATABASE_URL, as CI sets it) PostgreSQL: calls
// are recorded, summed for the daily budget from a given instant, and listed newest first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_ENGINES, type TestDatabase } from '../test-support/open-test-database';
import { createLlmUsageStore, type LlmUsageEntry } from './llm-usage-store';

const call = (overrides: Partial<LlmUsageEntry>): LlmUsageEntry => ({
  integration: 'InvokeLLM',
  model: 'm',
  caller_kind: 'user',
  user_id: 'u1',
  prompt_tokens: 10,
  completion_tokens: 5,
  ...overrides,
});

describe.each(TEST_ENGINES)('llm_usage on %s', (name) => {
  let engine: TestDatabase;

  beforeAll(async () => {
    engine = await openTestDatabase({ engine: name, name: 'llm_usage' });
    await engine.db.query('INSERT INTO apps (id) VALUES ($1), ($2)', ['a1', 'a2']);
  });
  afterAll(async () => engine.close());

  it('records calls, sums an app’s tokens since an instant and lists them newest first', async () => {
    const store = createLlmUsageStore(engine.db);
    const before = new Date(Date.now() - 60_000);
    const at = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();
    await store.insertBatch([
      { ...call({}), app_id: 'a1', created_at: at(2) },
      {
        ...call({ model: 'other', caller_kind: 'service', user_id: null, prompt_tokens: 1 }),
        app_id: 'a1',
        created_at: at(1),
      },
      { ...call({ prompt_tokens: 1000 }), app_id: 'a2', created_at: at(1) },
    ]);
    await store.insertBatch([]);
    expect(await store.tokensSince('a1', before)).toBe(21);
    expect(await store.tokensSince('a1', new Date(Date.now() + 60_000))).toBe(0);
    const recent = await store.recent('a1', 10);
    expect(recent.map((row) => row.model)).toEqual(['other', 'm']);
    expect(recent[0]).toMatchObject({
      caller_kind: 'service',
      user_id: null,
      prompt_tokens: 1,
      completion_tokens: 5,
    });
    expect(recent[0]?.created_date).toMatch(/^\d{4}-\d\d-\d\dT/);
  });
});
