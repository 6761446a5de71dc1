// The Agents page's rules that the e2e spec reaches only in part: the test chat writes only to the admin's
// own test conversations, the browser's cursor is checked before any query, and pushes reach the watchers
// of their conversation only, at most as many as the instance allows.
import { describe, expect, it } from 'vitest';
import { ConflictError, ForbiddenError, InvalidInputError } from '../../lib/errors';
import { userCaller } from '../../rules/caller';
import type { ConversationRow } from '../../store/agent-conversations-store';
import { createConversationWatchers } from '../agents/conversation-watchers';
import { createAgentsConsole, TEST_MARK } from './agents-console';

const admin = userCaller({ id: 'a1', email: 'a1@example.test', role: 'admin', full_name: 'A', custom: {} });
const headers = { authorization: 'Bearer x' };

function setUp(rows: ConversationRow[]) {
  const sent: string[] = [];
  const summaries: object[] = [];
  const console = createAgentsConsole({
    agents: new Map(),
    skills: new Map(),
    conversations: {
      find: async (_appId, id) => rows.find((row) => row.id === id) ?? null,
      messages: async () => [],
    },
    browser: {
      summaries: async (_appId, filter) => {
        summaries.push(filter);
        return [];
      },
    },
    service: {
      createConversation: async () => {
        throw new Error('not used');
      },
      addMessage: async (_appId, _caller, _headers, id) => {
        sent.push(id);
        return {} as never;
      },
    },
    watchers: createConversationWatchers(2),
  });
  return { console, sent, summaries };
}

const row = (id: string, metadata: Record<string, unknown>, owner: string | null): ConversationRow => ({
  id,
  app_id: 'app',
  agent_name: 'helper',
  created_by_id: owner,
  created_by: owner && `${owner}@example.test`,
  metadata,
  turn_running: false,
  created_date: '2026-01-01T00:00:00.000Z',
  updated_date: '2026-01-01T00:00:00.000Z',
});

describe('the agents console', () => {
  it('sends test messages only to the admin’s own test conversations', async () => {
    const { console, sent } = setUp([
      row('mine', { [TEST_MARK]: true }, 'a1'),
      row('users', {}, 'u1'),
      row('other-admin', { [TEST_MARK]: true }, 'a2'),
    ]);
    await console.sendTest('app', admin, headers, 'mine', 'hi');
    await expect(console.sendTest('app', admin, headers, 'users', 'hi')).rejects.toThrow(ConflictError);
    await expect(console.sendTest('app', admin, headers, 'other-admin', 'hi')).rejects.toThrow(
      ForbiddenError,
    );
    expect(sent).toEqual(['mine']);
  });

  it('refuses a cursor that is not one before querying', async () => {
    const { console, summaries } = setUp([]);
    for (const before of ['nonsense', '0000-01-01T00:00:00.000Z|c', '+010000-01-01T00:00:00.000Z|c']) {
      await expect(console.conversations('app', { before, limit: 10 })).rejects.toThrow(InvalidInputError);
    }
    expect(summaries).toEqual([]);
    await console.conversations('app', { before: '0001-01-01T00:00:00.000Z|c', limit: 10 });
    await console.conversations('app', { before: '9999-12-31T23:59:59.999Z|c', limit: 10 });
    summaries.length = 0;
    await console.conversations('app', { before: '2026-01-01T00:00:00.000Z|c|1', limit: 10 });
    expect(summaries).toEqual([
      expect.objectContaining({ before: { createdDate: '2026-01-01T00:00:00.000Z', id: 'c|1' }, limit: 11 }),
    ]);
  });
});

describe('conversation watchers', () => {
  it('hand a push to its conversation’s watchers only, up to the bound', () => {
    const watchers = createConversationWatchers(2);
    const seen: string[] = [];
    const unwatch = watchers.watch('app', 'c1', (data) => seen.push(`c1:${data}`));
    watchers.watch('app', 'c2', (data) => seen.push(`c2:${data}`));
    expect(watchers.watch('app', 'c3', () => undefined)).toBeNull();
    watchers.notify({ appId: 'app', conversationId: 'c1', ownerId: null, data: 'one' });
    watchers.notify({ appId: 'other', conversationId: 'c1', ownerId: null, data: 'two' });
    unwatch?.();
    watchers.notify({ appId: 'app', conversationId: 'c1', ownerId: null, data: 'three' });
    expect(seen).toEqual(['c1:one']);
    expect(watchers.watch('app', 'c3', () => undefined)).not.toBeNull();
  });
});
