// Migration 20 and the LLM usage store on PGlite and (with DATABASE_URL, as CI sets it) PostgreSQL: calls
// are recorded, summed for the daily budget from a given instant, and listed newest first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openScratchPglite } from '../test-support/scratch-pglite';
import { openScratchPostgres, type ScratchPostgres } from '../test-support/scratch-postgres';
import { createLlmUsageStore, type LlmUsageEntry } from './llm-usage-store';
import { runMigrations } from './migrations';

type Engine = ScratchPostgres;

const openPglite = () => openScratchPglite('llm-usage');

const engines: [string, () => Promise<Engine>][] = [['PGlite', openPglite]];
const adminUrl = process.env.DATABASE_URL;
if (adminUrl) engines.push(['PostgreSQL', () => openScratchPostgres(adminUrl, 'llm_usage')]);

const call = (overrides: Partial<LlmUsageEntry>): LlmUsageEntry => ({
  integration: 'InvokeLLM',
  model: 'm',
  caller_kind: 'user',
  user_id: 'u1',
  prompt_tokens: 10,
  completion_tokens: 5,
  ...overrides,
});

describe.each(engines)('llm_usage on %s', (_name, open) => {
  let engine: Engine;

  beforeAll(async () => {
    engine = await open();
    await runMigrations(engine.db);
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
