// The conversation browser's query on PGlite and (with DATABASE_URL) PostgreSQL: any owner's conversations,
// newest first by keyset, filtered by agent and by creator (email in any case, or id), each with its
// message count, tool calls and tokens summed from the stored messages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_ENGINES, type TestDatabase } from '../test-support/open-test-database';
import { createAgentBrowserStore, type AgentBrowserStore } from './agent-browser-store';
import { createAgentConversationsStore } from './agent-conversations-store';

const conversation = (id: string, second: number, overrides: object = {}) => ({
  id,
  app_id: 'a1',
  agent_name: 'helper',
  created_by_id: 'u1',
  created_by: 'Ann@Example.test',
  metadata: {},
  created_date: new Date(Date.parse('2026-01-01T00:00:00Z') + second * 1000).toISOString(),
  updated_date: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

describe.each(TEST_ENGINES)('agent conversation browser on %s', (name) => {
  let engine: TestDatabase;
  let browser: AgentBrowserStore;

  beforeAll(async () => {
    engine = await openTestDatabase({ engine: name, name: 'agent_browser' });
    const store = createAgentConversationsStore(engine.db);
    browser = createAgentBrowserStore(engine.db);
    await store.insert(conversation('c1', 1));
    await store.insert(conversation('c2', 2, { created_by_id: 'u2', created_by: 'bob@example.test' }));
    await store.insert(conversation('c3', 3, { agent_name: 'other' }));
    await store.insert(conversation('c4', 4, { app_id: 'a2' }));
    await store.append('c1', { id: 'm1', role: 'user', content: 'hi', tool_calls: [], usage: null });
    await store.append('c1', {
      id: 'm2',
      role: 'assistant',
      content: '',
      tool_calls: [{ id: 't1' }, { id: 't2' }],
      usage: { prompt_tokens: 12, completion_tokens: 8 },
    });
    await store.append('c1', {
      id: 'm3',
      role: 'assistant',
      content: 'done',
      tool_calls: [],
      usage: { prompt_tokens: 30, completion_tokens: 5 },
    });
  });
  afterAll(async () => engine.close());

  it('lists every owner’s conversations of the app, newest first, paged by keyset', async () => {
    const ids = async (filter: object) =>
      (await browser.summaries('a1', { limit: 10, ...filter })).map((row) => row.id);
    expect(await ids({})).toEqual(['c3', 'c2', 'c1']);
    const [newest] = await browser.summaries('a1', { limit: 1 });
    expect(
      await ids({ before: { createdDate: newest?.created_date ?? '', id: newest?.id ?? '' }, limit: 1 }),
    ).toEqual(['c2']);
    expect(await ids({ agentName: 'other' })).toEqual(['c3']);
    expect(await ids({ user: 'ann@EXAMPLE.test' })).toEqual(['c3', 'c1']);
    expect(await ids({ user: 'u2' })).toEqual(['c2']);
    expect(await ids({ user: 'nobody' })).toEqual([]);
  });

  it('sums each conversation’s messages, tool calls and tokens', async () => {
    const rows = await browser.summaries('a1', { limit: 10 });
    expect(rows.find((row) => row.id === 'c1')).toMatchObject({
      messages: 3,
      tool_calls: 2,
      prompt_tokens: 42,
      completion_tokens: 13,
      created_by: 'Ann@Example.test',
      turn_running: false,
    });
    expect(rows.find((row) => row.id === 'c2')).toMatchObject({
      messages: 0,
      tool_calls: 0,
      prompt_tokens: 0,
    });
  });
});
