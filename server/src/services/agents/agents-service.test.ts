// The conversation limits that protect the database from one user: starts per hour, and a refused message
// that never reads the conversation's history.
import { describe, expect, it } from 'vitest';
import { TooManyRequestsError } from '../../lib/errors';
import { userCaller } from '../../rules/caller';
import type { AgentConversationsStore } from '../../store/agent-conversations-store';
import { createRateLimiter } from '../limits/rate-limiter';
import type { AgentTurns } from './agent-turns';
import { CONVERSATIONS_PER_HOUR, createAgentsService } from './agents-service';

const caller = userCaller({ id: 'u1', email: 'u1@example.test', role: 'user', full_name: 'U', custom: {} });
const agent = {
  name: 'helper',
  file: 'agents/helper.jsonc',
  description: '',
  instructions: 'Help.',
  tools: [],
  skills: [],
  definition: {},
};

function setUp(options: { turnRunning: boolean }) {
  const reads = { history: 0 };
  const row = {
    id: 'c1',
    app_id: 'app',
    agent_name: 'helper',
    created_by_id: 'u1',
    created_by: 'u1@example.test',
    metadata: {},
    turn_running: options.turnRunning,
    created_date: new Date().toISOString(),
    updated_date: new Date().toISOString(),
  };
  const store = {
    insert: async () => undefined,
    find: async () => row,
    messageCount: async () => 4,
    messages: async () => {
      reads.history += 1;
      return [];
    },
    startTurn: async () => !options.turnRunning,
  } as unknown as AgentConversationsStore;
  const turns = { admit: () => undefined, start: () => undefined } as unknown as AgentTurns;
  const service = createAgentsService({
    agents: new Map([['helper', agent as never]]),
    store,
    turns,
    leaseMs: 30_000,
    limiter: createRateLimiter(),
  });
  return { service, reads };
}

describe('agent conversations', () => {
  it(`lets one user start ${CONVERSATIONS_PER_HOUR} conversations an hour, then answers 429`, async () => {
    const { service } = setUp({ turnRunning: false });
    for (let index = 0; index < CONVERSATIONS_PER_HOUR; index += 1) {
      await service.createConversation('app', caller, { agent_name: 'helper' });
    }
    await expect(service.createConversation('app', caller, { agent_name: 'helper' })).rejects.toBeInstanceOf(
      TooManyRequestsError,
    );
    // Another user, and the service role, are not held back by it.
    const other = userCaller({
      id: 'u2',
      email: 'u2@example.test',
      role: 'user',
      full_name: 'V',
      custom: {},
    });
    await expect(service.createConversation('app', other, { agent_name: 'helper' })).resolves.toBeTruthy();
    await expect(
      service.createConversation('app', { kind: 'service' }, { agent_name: 'helper' }),
    ).resolves.toBeTruthy();
  });

  it('refuses a message while a turn runs without reading the history; reads it once when it starts', async () => {
    const busy = setUp({ turnRunning: true });
    await expect(
      busy.service.addMessage('app', caller, {}, 'c1', { role: 'user', content: 'hi' }),
    ).rejects.toThrow(/still answering/);
    expect(busy.reads.history).toBe(0);
    const idle = setUp({ turnRunning: false });
    await idle.service.addMessage('app', caller, {}, 'c1', { role: 'user', content: 'hi' });
    expect(idle.reads.history).toBe(1);
  });
});
