import { expect, test } from '../../support/test';
import {
  agentsEnv,
  lastMessage,
  startConversation,
  turnDone,
  type Conversation,
} from '../../support/agents-helpers';
import { createUser, uniqueEmail, userClient } from '../../support/auth-helpers';
import { startOpenAiDouble, type OpenAiDouble } from '../../support/openai-double';
import {
  currentDatabaseMode,
  removeServerData,
  startServer,
  type RunningServer,
} from '../../support/server-process';

// Two instances on one PostgreSQL database and one Redis: a turn run by instance A pushes its steps, in
// order, to the SDK subscriber connected to B; the conversation outlives A's restart.
// Runs in the api-postgres project when REDIS_URL is set (.ci/run sets both).
const redisUrl = process.env.REDIS_URL;
// One signing secret for both instances (each would otherwise make its own in its data folder).
const JWT_SECRET = 'e2e-jwt-secret-0123456789abcdefghijklmnopqrstuvwxyz';
type Client = ReturnType<typeof userClient>;

let double: OpenAiDouble;
let a: RunningServer;
/** owner is the first A: it created the database (kept across its restart), removed at the end. */
let owner: RunningServer | undefined;
let b: RunningServer;
const clients: Client[] = [];
const clientOf = (server: RunningServer, token: string) => {
  const made = userClient(server, token);
  clients.push(made);
  return made;
};

test.beforeAll(async () => {
  test.skip(
    currentDatabaseMode() !== 'postgres' || !redisUrl,
    'needs the api-postgres project (DATABASE_URL) and REDIS_URL',
  );
  double = await startOpenAiDouble();
  const env = { ...agentsEnv(double.baseUrl), REDIS_URL: redisUrl ?? '', JWT_SECRET };
  a = await startServer({ env, keepData: true });
  owner = a;
  b = await startServer({ env, databaseUrl: a.databaseUrl });
});

test.afterAll(async () => {
  for (const made of clients) made.cleanup();
  await b?.stop();
  await a?.stop();
  await double?.close();
  if (owner) await removeServerData(owner);
});

test("a turn on instance A reaches the subscriber on B in order; the conversation outlives A's restart", async () => {
  const user = await createUser(a, { email: uniqueEmail('agents-ab') });
  const onA = clientOf(a, user.token);
  const onB = clientOf(b, user.token);
  const conversation = await startConversation(onA);
  const seen: Conversation[] = [];
  onB.agents.subscribeToConversation(conversation.id, (update) =>
    seen.push(structuredClone(update) as unknown as Conversation),
  );
  await new Promise((wait) => setTimeout(wait, 800));

  await onA.agents.addMessage(conversation as never, {
    role: 'user',
    content: '[call:create_task {"title":"across"}] then tell me about it in a few words',
  });
  const done = await turnDone(onA, conversation.id);
  await expect.poll(() => seen.at(-1)?.messages.at(-1)?.status).toBe('success');
  const last = lastMessage(seen.at(-1));
  expect(last.id).toBe(lastMessage(done).id);
  expect(last.content).toBe(lastMessage(done).content);
  const statuses = seen.flatMap((update) =>
    update.messages.flatMap((message) => message.tool_calls.map((call) => call.status)),
  );
  expect(statuses.lastIndexOf('running')).toBeLessThan(statuses.indexOf('success'));

  await a.stop();
  a = await startServer({
    env: { ...agentsEnv(double.baseUrl), REDIS_URL: redisUrl ?? '', JWT_SECRET },
    databaseUrl: b.databaseUrl,
  });
  const again = (await clientOf(a, user.token).agents.getConversation(
    conversation.id,
  )) as unknown as Conversation;
  expect(again.messages.map((message) => message.id)).toEqual(done.messages.map((message) => message.id));
});
