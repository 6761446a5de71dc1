// Migration 24 and the agent conversations store on PGlite and (with DATABASE_URL, as CI sets it)
// PostgreSQL: conversations listed by owner, agent and metadata; messages kept in order; one turn at a
// time; leases that let a dead process's turns be claimed once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_ENGINES, type TestDatabase } from '../test-support/open-test-database';
import { createAgentConversationsStore, type AgentConversationsStore } from './agent-conversations-store';

const row = (id: string, overrides: Partial<Parameters<AgentConversationsStore['insert']>[0]> = {}) => ({
  id,
  app_id: 'a1',
  agent_name: 'helper',
  created_by_id: 'u1',
  created_by: 'u1@example.test',
  metadata: {},
  created_date: new Date(
    Date.parse('2026-01-01T00:00:00Z') + Number(id.replace(/\D/g, '')) * 1000,
  ).toISOString(),
  updated_date: '2026-01-01T00:00:00.000Z',
  ...overrides,
});
const message = (id: string, content: string) => ({ id, role: 'user', content });
const page = { sort: { field: 'created_date' as const, descending: true }, limit: 50, skip: 0 };

describe.each(TEST_ENGINES)('agent conversations on %s', (name) => {
  let engine: TestDatabase;
  let store: AgentConversationsStore;

  beforeAll(async () => {
    engine = await openTestDatabase({ engine: name, name: 'agent_conversations' });
    store = createAgentConversationsStore(engine.db);
    await store.insert(row('c1', { metadata: { topic: 'milk', n: 1 } }));
    await store.insert(row('c2', { created_by_id: 'u2', agent_name: 'other' }));
    await store.insert(row('c3', { app_id: 'a2' }));
  });
  afterAll(async () => engine.close());

  it('lists an app’s conversations by owner, agent and metadata, newest first, paged', async () => {
    const ids = async (filter: object) => (await store.list('a1', { ...page, ...filter })).map((c) => c.id);
    expect(await ids({})).toEqual(['c2', 'c1']);
    expect(await ids({ ownerId: 'u1' })).toEqual(['c1']);
    expect(await ids({ agentName: 'other' })).toEqual(['c2']);
    expect(await ids({ metadata: { topic: 'milk' } })).toEqual(['c1']);
    expect(await ids({ metadata: { n: '1' } })).toEqual(['c1']);
    expect(await ids({ metadata: { topic: 'tea' } })).toEqual([]);
    expect(await ids({ sort: { field: 'created_date', descending: false }, limit: 1, skip: 1 })).toEqual([
      'c2',
    ]);
    expect(await store.find('a1', 'c1')).toMatchObject({
      metadata: { topic: 'milk', n: 1 },
      turn_running: false,
    });
    expect(await store.find('a1', 'c3')).toBeNull();
  });

  it('keeps messages in order, replaces one by id, and runs one turn at a time', async () => {
    const lease = new Date(Date.now() + 60_000);
    expect(await store.startTurn('a1', 'c1', message('m1', 'hello'), lease)).toBe(true);
    expect(await store.startTurn('a1', 'c1', message('m2', 'again'), lease)).toBe(false);
    expect(await store.startTurn('a2', 'c1', message('m2', 'wrong app'), lease)).toBe(false);
    await store.append('c1', { id: 'm2', role: 'assistant', content: '' });
    await store.save('c1', { id: 'm2', role: 'assistant', content: 'hi there' });
    expect(await store.messages('c1')).toEqual([
      message('m1', 'hello'),
      { id: 'm2', role: 'assistant', content: 'hi there' },
    ]);
    expect(await store.messageCount('c1')).toBe(2);
    const recent = await store.recentMessages(['c1', 'c2'], 1);
    expect(Object.fromEntries(recent)).toEqual({
      c1: [{ id: 'm2', role: 'assistant', content: 'hi there' }],
      c2: [],
    });
    await store.endTurn('c1');
    expect(await store.startTurn('a1', 'c1', message('m3', 'next'), lease)).toBe(true);
    await store.endTurn('c1');
  });

  it('claims a running turn only once its lease ran out, and once', async () => {
    const now = new Date();
    expect(await store.startTurn('a1', 'c2', message('x1', 'long'), new Date(now.getTime() - 1_000))).toBe(
      true,
    );
    expect(await store.startTurn('a2', 'c3', message('y1', 'fresh'), new Date(now.getTime() + 60_000))).toBe(
      true,
    );
    const later = new Date(now.getTime() + 30_000);
    const claimed = await store.claimAbandoned(now, later, 10);
    expect(claimed.map((c) => c.id)).toEqual(['c2']);
    expect(await store.claimAbandoned(now, later, 10)).toEqual([]);
    // On one instance every running turn at start is abandoned, leased or not.
    expect((await store.claimAbandoned(now, later, 10, true)).map((c) => c.id).sort()).toEqual(['c2', 'c3']);
    await store.renewLeases(['c2'], new Date(now.getTime() + 90_000));
    expect(await store.claimAbandoned(new Date(now.getTime() + 60_000), later, 10)).toMatchObject([
      { id: 'c3' },
    ]);
  });
});
