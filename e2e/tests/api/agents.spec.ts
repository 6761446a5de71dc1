import { io } from 'socket.io-client';
import { expect, test } from '../../support/test';
import {
  agentsEnv,
  ask,
  lastMessage,
  resultsOf,
  startConversation,
  turnDone,
  type AgentMessage,
  type Conversation,
} from '../../support/agents-helpers';
import { SERVICE_TOKEN, api, createUser, failure, uniqueEmail, userClient } from '../../support/auth-helpers';
import { startOpenAiDouble, type OpenAiDouble } from '../../support/openai-double';
import { DEFAULT_APP_ID } from '../../support/sdk-client';
import { startServer, type RunningServer } from '../../support/server-process';

// Agents through the official SDK against a real server (the agents fixture) and the scripted LLM double:
// conversations and who may read them, turns whose tools act as the caller (entities under its rules, a
// function with its token), pushes over `subscribeToConversation`, and turns that end in every case.
test.describe.configure({ mode: 'serial' });

type Client = ReturnType<typeof userClient>;
type Row = Record<string, unknown> & { id: string };

let double: OpenAiDouble;
let server: RunningServer;
const clients: Client[] = [];
let alice: { token: string; user: { id: string; email: string } };
let bob: { token: string; user: { id: string; email: string } };
let admin: { token: string; user: { id: string; email: string } };

const clientOf = (token?: string, on: RunningServer = server) => {
  const made = userClient(on, token);
  clients.push(made);
  return made;
};
const entity = (client: Client, name: string) =>
  (
    client.entities as unknown as Record<
      string,
      { list(): Promise<Row[]>; create(data: object): Promise<Row> }
    >
  )[name] as { list(): Promise<Row[]>; create(data: object): Promise<Row> };
const lastOf = lastMessage;
const toolCalls = (conversation: Conversation) =>
  conversation.messages.flatMap((message) => message.tool_calls);

test.beforeAll(async () => {
  double = await startOpenAiDouble();
  server = await startServer({ env: agentsEnv(double.baseUrl) });
  alice = await createUser(server, { email: uniqueEmail('agent-alice') });
  bob = await createUser(server, { email: uniqueEmail('agent-bob') });
  admin = await createUser(server, { email: uniqueEmail('agent-admin'), role: 'admin' });
});

test.afterAll(async () => {
  for (const made of clients) made.cleanup();
  await server?.stop();
  await double?.close();
});

test('conversations: created with metadata, listed by agent name in both forms, private to their creator', async () => {
  const asAlice = clientOf(alice.token);
  const conversation = await startConversation(asAlice, { topic: 'groceries' });
  expect(conversation).toMatchObject({
    agent_name: 'task_helper',
    created_by_id: alice.user.id,
    metadata: { topic: 'groceries' },
    messages: [],
  });
  expect((await failure(asAlice.agents.createConversation({ agent_name: 'nobody' }))).status).toBe(404);

  // The SDK sends q in brackets (q[agent_name]=…); some apps send agent_name at the top level.
  const listed = await asAlice.agents.listConversations({
    q: { agent_name: 'task_helper' },
    sort: '-created_date',
    limit: 5,
  });
  expect(listed.map((item) => item.id)).toContain(conversation.id);
  const byMetadata = await asAlice.agents.listConversations({
    q: { 'metadata.topic': 'groceries' } as never,
  });
  expect(byMetadata.map((item) => item.id)).toEqual([conversation.id]);
  const topLevel = await fetch(
    `${server.url}/api/apps/${DEFAULT_APP_ID}/agents/conversations?agent_name=task_helper&fields[]=id`,
    {
      headers: { authorization: `Bearer ${alice.token}` },
    },
  );
  expect(await topLevel.json()).toContainEqual({ id: conversation.id });
  expect(await asAlice.agents.listConversations({ q: { agent_name: 'other_agent' } })).toEqual([]);

  // Bob neither lists nor reads it; admins and the service role do.
  const asBob = clientOf(bob.token);
  expect((await asBob.agents.getConversations()).map((item) => item.id)).not.toContain(conversation.id);
  expect((await failure(asBob.agents.getConversation(conversation.id))).status).toBe(404);
  expect(
    (await failure(asBob.agents.addMessage(conversation as never, { role: 'user', content: 'hi' }))).status,
  ).toBe(404);
  expect((await clientOf(admin.token).agents.getConversation(conversation.id))?.id).toBe(conversation.id);
  expect((await clientOf(SERVICE_TOKEN).agents.getConversation(conversation.id))?.id).toBe(conversation.id);
  expect((await failure(clientOf().agents.getConversations())).status).toBe(401);

  // An app that adds a message before its conversation exists sends `undefined`: a clean 404.
  const undefinedId = await fetch(
    `${server.url}/api/apps/${DEFAULT_APP_ID}/agents/conversations/v2/undefined/messages`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ role: 'user', content: 'hi' }),
    },
  );
  expect(undefinedId.status).toBe(404);
  expect(((await undefinedId.json()) as { message: string }).message).toContain(
    'create the conversation first',
  );

  // The older message path (before SDK 0.8.50's `v2`) stores a message of the same shape.
  const older = await fetch(
    `${server.url}/api/apps/${DEFAULT_APP_ID}/agents/conversations/${conversation.id}/messages`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        role: 'user',
        content: { text: 'an object' },
        file_urls: ['https://f.test/a.png'],
        hidden: true,
        custom_context: [{ message: 'page', data: { at: 'home' }, type: 'ctx' }],
      }),
    },
  );
  expect(older.status).toBe(200);
  const shaped = (await older.json()) as Record<string, unknown>;
  expect(Object.keys(shaped).sort()).toEqual(
    [
      'content',
      'created_date',
      'custom_context',
      'file_urls',
      'hidden',
      'id',
      'metadata',
      'model',
      'role',
      'tool_calls',
      'updated_date',
      'usage',
    ].sort(),
  );
  expect(shaped).toMatchObject({
    role: 'user',
    content: { text: 'an object' },
    file_urls: ['https://f.test/a.png'],
    hidden: true,
    custom_context: [{ message: 'page', data: { at: 'home' }, type: 'ctx' }],
    tool_calls: [],
    metadata: { created_by_email: alice.user.email, created_by_full_name: expect.anything() },
  });
  await turnDone(asAlice, conversation.id);

  const whatsapp = await fetch(asAlice.agents.getWhatsAppConnectURL('task_helper'));
  expect(whatsapp.status).toBe(501);
  expect(((await whatsapp.json()) as { message: string }).message).toContain('not available on this server');
});

test('a user asks to create, list, update and delete tasks: the tools act as the user and the effects are in the database', async () => {
  const asAlice = clientOf(alice.token);
  const conversation = await startConversation(asAlice);
  const stored = await asAlice.agents.addMessage(conversation as never, {
    role: 'user',
    content: 'Add milk [call:create_task {"title":"Buy milk"}] [call:read_task {}]',
  });
  expect(stored).toMatchObject({ role: 'user', content: expect.stringContaining('Add milk') });
  expect(stored.metadata).toMatchObject({ created_by_email: alice.user.email });

  const first = await turnDone(asAlice, conversation.id);
  const [created, read] = toolCalls(first);
  expect(created).toMatchObject({ name: 'create_task', status: 'success' });
  expect(read).toMatchObject({ name: 'read_task', status: 'success' });
  const task = resultsOf(created) as Row;
  expect(task).toMatchObject({ title: 'Buy milk', created_by: alice.user.email });
  expect(lastOf(first)).toMatchObject({ role: 'assistant', status: 'success', model: expect.any(String) });
  expect(lastOf(first).content).toContain('Buy milk');
  expect(lastOf(first).usage).toMatchObject({
    prompt_tokens: expect.any(Number),
    completion_tokens: expect.any(Number),
  });
  expect((await entity(asAlice, 'Task').list()).map((row) => row.title)).toEqual(['Buy milk']);

  const second = await ask(
    asAlice,
    conversation,
    `[call:update_task {"id":"${task.id}","data":{"done":true}}] [call:delete_task {"id":"${task.id}"}]`,
  );
  expect(
    toolCalls(second)
      .slice(-2)
      .map((call) => [call.name, call.status]),
  ).toEqual([
    ['update_task', 'success'],
    ['delete_task', 'success'],
  ]);
  expect(resultsOf(toolCalls(second).at(-2))).toMatchObject({ done: true });
  expect(await entity(asAlice, 'Task').list()).toEqual([]);

  // The model read the instructions, the skill's description, and the conversation so far.
  const lastRequest = double.chats().at(-1) as {
    messages: { role: string; content: unknown }[];
    tools: { function: { name: string } }[];
  };
  expect(String(lastRequest.messages[0]?.content)).toContain("You manage the user's tasks");
  expect(String(lastRequest.messages[0]?.content)).toContain('tone: How to word replies');
  expect(lastRequest.tools.map((tool) => tool.function.name).sort()).toEqual(
    [
      'create_announcement',
      'create_task',
      'delete_task',
      'read_skill',
      'read_task',
      'update_task',
      'whoami',
    ].sort(),
  );
  expect(lastRequest.messages.some((message) => String(message.content).includes('Add milk'))).toBe(true);
});

test("a tool call the user's rules forbid is an error result for the model and changes nothing", async () => {
  const bobsTask = await entity(clientOf(bob.token), 'Task').create({ title: "Bob's" });
  const asAlice = clientOf(alice.token);
  const conversation = await startConversation(asAlice);
  const done = await ask(
    asAlice,
    conversation,
    `[call:create_announcement {"text":"hello all"}] [call:delete_task {"id":"${bobsTask.id}"}] [call:create_task {"nope":1}]`,
  );
  const calls = toolCalls(done);
  expect(calls.map((call) => call.status)).toEqual(['error', 'error', 'error']);
  for (const call of calls) expect(resultsOf(call)).toEqual({ error: expect.any(String) });
  expect(lastOf(done).status).toBe('success');
  expect(lastOf(done).content).toContain('error');
  expect(await entity(clientOf(SERVICE_TOKEN), 'Announcement').list()).toEqual([]);
  expect((await entity(clientOf(bob.token), 'Task').list()).map((row) => row.id)).toContain(bobsTask.id);
});

test("a function tool runs with the caller's identity; a skill's body is read through read_skill", async () => {
  test.setTimeout(90_000);
  const asAlice = clientOf(alice.token);
  const conversation = await startConversation(asAlice);
  await asAlice.agents.addMessage(conversation as never, {
    role: 'user',
    content: '[call:whoami {"question":"me?"}] [call:read_skill {"name":"tone"}]',
  });
  const done = await turnDone(asAlice, conversation.id, 60_000);
  const [whoami, skill] = toolCalls(done);
  expect(whoami).toMatchObject({ name: 'whoami', status: 'success' });
  expect(resultsOf(whoami)).toEqual({ email: alice.user.email, asked: 'me?' });
  expect(resultsOf(skill)).toContain('Never use exclamation marks');
  // The function's log keeps the user the agent acted for, as a direct call would (the console's user filter).
  await expect
    .poll(async () => {
      const answer = await api(
        server,
        `/api/apps/${DEFAULT_APP_ID}/admin/logs/functions?function=whoami&user=${alice.user.id}`,
        { method: 'GET', token: admin.token },
      );
      return (answer.json.items as { user_id: string | null }[] | undefined)?.map((item) => item.user_id);
    })
    .toEqual([alice.user.id]);
});

test('pushes arrive in order over subscribeToConversation; another user can neither subscribe, join nor receive', async () => {
  const asAlice = clientOf(alice.token);
  const conversation = await startConversation(asAlice);
  const seen: Conversation[] = [];
  const unsubscribe = asAlice.agents.subscribeToConversation(conversation.id, (update) => {
    seen.push(structuredClone(update) as unknown as Conversation);
  });

  // Bob's raw socket (as the SDK opens it) is refused the room. (His SDK subscription would fail its GET
  // with a 404 and deliver nothing; that failure is an unhandled rejection in SDK 0.8.50, so not used here.)
  const raw = io(server.url, {
    path: '/ws-user-apps/socket.io/',
    transports: ['websocket'],
    reconnection: false,
    query: { app_id: DEFAULT_APP_ID, token: bob.token },
  });
  const rawSeen: unknown[] = [];
  raw.on('update_model', (message: unknown) => rawSeen.push(message));
  raw.on('connect', () => raw.emit('join', `/agent-conversations/${conversation.id}`));
  await new Promise((wait) => setTimeout(wait, 600));

  await asAlice.agents.addMessage(conversation as never, {
    role: 'user',
    content: 'Please [call:create_task {"title":"streamed"}] and tell me a fairly long story about it',
  });
  await expect
    .poll(
      () =>
        seen.length > 0 &&
        lastMessage(seen.at(-1)).role === 'assistant' &&
        lastMessage(seen.at(-1)).status === 'success',
      { timeout: 15_000 },
    )
    .toBe(true);
  unsubscribe();

  // Each message only grows; each tool call goes running → success; the last push is the final answer.
  const final = (await asAlice.agents.getConversation(conversation.id)) as unknown as Conversation;
  const byMessage = new Map<string, AgentMessage[]>();
  for (const update of seen) {
    for (const message of update.messages)
      if (message.role === 'assistant')
        byMessage.set(message.id, [...(byMessage.get(message.id) ?? []), message]);
  }
  for (const versions of byMessage.values()) {
    const lengths = versions.map((message) => String(message.content ?? '').length);
    expect(lengths).toEqual([...lengths].sort((x, y) => x - y));
  }
  const statuses = seen.flatMap((update) => lastOf(update).tool_calls.map((call) => call.status));
  expect(statuses.indexOf('running')).toBeGreaterThanOrEqual(0);
  expect(statuses.lastIndexOf('running')).toBeLessThan(statuses.indexOf('success'));
  expect(lastMessage(seen.at(-1)).content).toBe(lastOf(final).content);
  expect(lastMessage(seen.at(-1)).id).toBe(lastOf(final).id);

  await new Promise((wait) => setTimeout(wait, 300));
  expect(rawSeen).toEqual([]);
  raw.close();
});

test('an admin socket that loses the admin role stops receiving the pushes of a conversation it does not own', async () => {
  const demoted = await createUser(server, { email: uniqueEmail('agent-demoted'), role: 'admin' });
  const asAlice = clientOf(alice.token);
  const conversation = await startConversation(asAlice);
  const asDemoted = clientOf(demoted.token);
  const seen: Conversation[] = [];
  asDemoted.agents.subscribeToConversation(conversation.id, (update) =>
    seen.push(update as unknown as Conversation),
  );
  await new Promise((wait) => setTimeout(wait, 600));
  await ask(asAlice, conversation, 'first');
  await expect.poll(() => seen.length).toBeGreaterThan(0);

  await (
    clientOf(SERVICE_TOKEN).entities as unknown as Record<
      string,
      { update(id: string, data: object): Promise<unknown> }
    >
  ).User?.update(demoted.user.id, { role: 'user' });
  const before = seen.length;
  await ask(asAlice, conversation, 'second');
  await new Promise((wait) => setTimeout(wait, 400));
  expect(seen.length).toBe(before);
});

test('a provider failure and a second message during a turn both end in a final message', async () => {
  const asAlice = clientOf(alice.token);
  const failing = await startConversation(asAlice);
  const failed = await ask(asAlice, failing, 'this will [fail]');
  expect(lastOf(failed)).toMatchObject({ role: 'assistant', status: 'error' });
  expect(String(lastOf(failed).content)).toContain('The agent could not answer');
  expect(JSON.stringify(failed)).not.toContain('internal failure');

  const busy = await startConversation(asAlice);
  await asAlice.agents.addMessage(busy as never, { role: 'user', content: '[delay:800] slow one' });
  const second = await failure(asAlice.agents.addMessage(busy as never, { role: 'user', content: 'me too' }));
  expect(second.status).toBe(409);
  const ended = await turnDone(asAlice, busy.id);
  expect(ended.messages.filter((message) => message.role === 'user')).toHaveLength(1);
  expect(lastOf(ended).status).toBe('success');
});
