import { expect, test } from '../../support/test';
import {
  agentsEnv,
  ask,
  lastMessage,
  startConversation,
  turnDone,
  type Conversation,
} from '../../support/agents-helpers';
import { createUser, failure, uniqueEmail, userClient } from '../../support/auth-helpers';
import { startOpenAiDouble, type OpenAiDouble } from '../../support/openai-double';
import { removeServerData, startServer, type RunningServer } from '../../support/server-process';

// How an agent's turn ends when it cannot answer: no provider, its limits (rounds of tools, its deadline,
// the user's token share), and a server killed mid-turn. Every turn ends with a final assistant message
// whose status says so, and no conversation stays running.
type Client = ReturnType<typeof userClient>;

let double: OpenAiDouble;
const clients: Client[] = [];
const clientOf = (server: RunningServer, token: string) => {
  const made = userClient(server, token);
  clients.push(made);
  return made;
};
const lastOf = lastMessage;
const signedIn = async (server: RunningServer, label: string) =>
  clientOf(server, (await createUser(server, { email: uniqueEmail(label) })).token);

test.beforeAll(async () => {
  double = await startOpenAiDouble();
});
test.afterAll(async () => {
  for (const made of clients) made.cleanup();
  await double.close();
});

test('without LLM_PROVIDER_URL a message is stored and its turn ends at once with an error naming the setting', async () => {
  const server = await startServer({ env: agentsEnv() });
  try {
    const client = await signedIn(server, 'no-provider');
    const conversation = await startConversation(client);
    const done = await ask(client, conversation, 'hello?');
    expect(done.messages.map((message) => [message.role, message.status ?? null])).toEqual([
      ['user', null],
      ['assistant', 'error'],
    ]);
    expect(String(lastOf(done).content)).toContain('LLM_PROVIDER_URL');
  } finally {
    await server.stop();
  }
});

test.describe('limits', () => {
  let server: RunningServer;
  test.beforeAll(async () => {
    server = await startServer({
      env: {
        ...agentsEnv(double.baseUrl),
        AGENT_MAX_STEPS: '1',
        AGENT_TURN_TIMEOUT_MS: '1500',
        LLM_USER_DAILY_TOKENS: '40',
      },
    });
  });
  test.afterAll(async () => {
    await server.stop();
  });

  test('a model still asking for tools after AGENT_MAX_STEPS rounds is stopped, with an error status', async () => {
    const client = await signedIn(server, 'max-steps');
    const done = await ask(
      client,
      await startConversation(client),
      '[call:create_task {"title":"one"}] [call:create_task {"title":"two"}]',
    );
    const calls = done.messages.flatMap((message) => message.tool_calls);
    expect(calls.map((call) => call.status)).toEqual(['success', 'stopped']);
    expect(lastOf(done).status).toBe('error');
    expect(String(lastOf(done).content)).toContain('AGENT_MAX_STEPS');
  });

  test('a turn past AGENT_TURN_TIMEOUT_MS ends with an error naming it', async () => {
    const client = await signedIn(server, 'timeout');
    const done = await ask(client, await startConversation(client), '[delay:4000] take your time');
    expect(lastOf(done).status).toBe('error');
    expect(String(lastOf(done).content)).toContain('AGENT_TURN_TIMEOUT_MS');
  });

  test('a fifth turn of one user at once is refused with 429 and stores nothing', async () => {
    const client = await signedIn(server, 'turns-at-once');
    const conversations = await Promise.all(Array.from({ length: 5 }, () => startConversation(client)));
    for (const conversation of conversations.slice(0, 4)) {
      await client.agents.addMessage(conversation as never, { role: 'user', content: '[delay:1000] wait' });
    }
    const fifth = conversations[4] as Conversation;
    const refused = await failure(
      client.agents.addMessage(fifth as never, { role: 'user', content: 'me too' }),
    );
    expect(refused.status).toBe(429);
    expect(refused.message).toContain('4 agent turns running');
    expect(((await client.agents.getConversation(fifth.id)) as unknown as Conversation).messages).toEqual([]);
    for (const conversation of conversations.slice(0, 4)) await turnDone(client, conversation.id);
  });

  test("the user's daily token share refuses the next turn with an error message", async () => {
    const client = await signedIn(server, 'budget');
    const conversation = await startConversation(client);
    expect(lastOf(await ask(client, conversation, 'one')).status).toBe('success');
    expect(lastOf(await ask(client, conversation, 'two')).status).toBe('success');
    const refused = await ask(client, conversation, 'three');
    expect(lastOf(refused).status).toBe('error');
    expect(String(lastOf(refused).content)).toContain('LLM_USER_DAILY_TOKENS');
  });
});

test('kill -9 mid-turn, then a restart, leaves a finished conversation that takes new messages', async () => {
  test.setTimeout(60_000);
  const env = agentsEnv(double.baseUrl);
  const first = await startServer({ env, keepData: true });
  const user = await createUser(first, { email: uniqueEmail('crash') });
  const before = clientOf(first, user.token);
  const conversation = await startConversation(before);
  await before.agents.addMessage(conversation as never, {
    role: 'user',
    content: '[delay:5000] slow answer',
  });
  await expect
    .poll(
      async () =>
        ((await before.agents.getConversation(conversation.id)) as unknown as Conversation).messages.length,
    )
    .toBe(2);
  await first.kill('SIGKILL');

  const second = await startServer({
    env,
    dataDir: first.dataDir,
    ...(first.databaseUrl ? { databaseUrl: first.databaseUrl } : {}),
  });
  try {
    const after = clientOf(second, user.token);
    const recovered = (await after.agents.getConversation(conversation.id)) as unknown as Conversation;
    expect(recovered.messages.filter((message) => message.status === 'running')).toEqual([]);
    expect(lastOf(recovered)).toMatchObject({ role: 'assistant', status: 'error' });
    expect(String(lastOf(recovered).content)).toContain('The server stopped while the agent was answering');
    expect(second.logs()).toContain('ended agent turns a stopped server left running');

    const next = await ask(after, conversation, 'are you back?');
    expect(lastOf(next)).toMatchObject({
      status: 'success',
      content: expect.stringContaining('are you back?'),
    });
    await turnDone(after, conversation.id);
  } finally {
    await second.stop();
    await removeServerData(first);
  }
});
