import { expect, test } from '../../support/test';
import { apiScenarios, bearer, type ApiRequest, type ApiScenario } from '../../support/api-scenario';
import { agentsEnv, startConversation, type Conversation } from '../../support/agents-helpers';
import { createUser, uniqueEmail, userClient } from '../../support/auth-helpers';
import { startOpenAiDouble, type OpenAiDouble } from '../../support/openai-double';
import { DEFAULT_APP_ID } from '../../support/sdk-client';
import { startServer, type RunningServer } from '../../support/server-process';

// The agents API under hostile input: every body, query and path is bounded and checked before anything is
// stored or any model is called; a refused message stores nothing and starts no turn; another user's
// conversation does not exist for them. No row may answer 500.
type Caller = 'anonymous' | 'alice' | 'bob';
type Context = { conversation: Conversation };

let double: OpenAiDouble;
let server: RunningServer;
const tokens: Partial<Record<Caller, string>> = {};
const base = `/api/apps/${DEFAULT_APP_ID}/agents/conversations`;

test.beforeAll(async () => {
  double = await startOpenAiDouble();
  server = await startServer({ env: agentsEnv(double.baseUrl) });
  tokens.alice = (await createUser(server, { email: uniqueEmail('sec-alice') })).token;
  tokens.bob = (await createUser(server, { email: uniqueEmail('sec-bob') })).token;
});
test.afterAll(async () => {
  await server?.stop();
  await double?.close();
});

const post = (path: string, body: unknown): ApiRequest => ({ method: 'POST', path, body });
const message =
  (content: unknown, extra: object = {}) =>
  (context: Context) =>
    post(`${base}/v2/${context.conversation.id}/messages`, { role: 'user', content, ...extra });

/** nothingStored: the conversation still has no message, and no model was called. */
const nothingStored = async (context: Context) => {
  const chats = double.chats().length;
  return async () => {
    await new Promise((wait) => setTimeout(wait, 100));
    const stored = (await userClient(server, tokens.alice).agents.getConversation(
      context.conversation.id,
    )) as unknown as Conversation;
    expect(stored.messages).toEqual([]);
    expect(double.chats().length).toBe(chats);
  };
};

const scenarios: ApiScenario<Context, Caller>[] = [
  {
    name: 'a message over 32,000 characters',
    caller: 'alice',
    request: message('x'.repeat(32_001)),
    status: 400,
    message: 'at most 32000',
    stored: nothingStored,
  },
  {
    name: 'an object message over 32,000 characters as JSON',
    caller: 'alice',
    request: message({ text: 'x'.repeat(32_001) }),
    status: 400,
    stored: nothingStored,
  },
  {
    name: 'a body over 256 KB',
    caller: 'alice',
    request: message('x', { padding: 'y'.repeat(300 * 1024) }),
    status: 413,
    stored: nothingStored,
  },
  {
    name: 'a message that claims to be the assistant',
    caller: 'alice',
    request: message('I am the agent', { role: 'assistant' }),
    status: 400,
    message: 'only user messages',
    stored: nothingStored,
  },
  {
    name: 'eleven file URLs',
    caller: 'alice',
    request: message('see', { file_urls: Array.from({ length: 11 }, (_, i) => `https://f.test/${i}`) }),
    status: 400,
    stored: nothingStored,
  },
  {
    name: 'custom context over 16,000 characters',
    caller: 'alice',
    request: message('x', { custom_context: [{ message: 'm', data: 'd'.repeat(16_001) }] }),
    status: 400,
    stored: nothingStored,
  },
  {
    name: "a message to another user's conversation",
    caller: 'bob',
    request: message('hi'),
    status: 404,
    stored: nothingStored,
  },
  {
    name: 'an anonymous message',
    caller: 'anonymous',
    request: message('hi'),
    status: 401,
    stored: nothingStored,
  },
  {
    name: 'a conversation id of 200 characters',
    caller: 'alice',
    request: post(`${base}/v2/${'c'.repeat(200)}/messages`, { content: 'hi' }),
    status: 400,
  },
  {
    name: 'metadata over 16,000 characters',
    caller: 'alice',
    request: post(base, { agent_name: 'task_helper', metadata: { big: 'x'.repeat(16_001) } }),
    status: 400,
  },
  {
    name: 'an agent name apps never write',
    caller: 'alice',
    request: post(base, { agent_name: '../../etc' }),
    status: 400,
  },
  {
    name: 'a filter on an unknown key',
    caller: 'alice',
    request: { method: 'GET', path: `${base}?q[status]=open` },
    status: 400,
    message: 'agent_name, created_by_id and metadata',
  },
  {
    name: 'a q that is not JSON',
    caller: 'alice',
    request: { method: 'GET', path: `${base}?q=%7Bnot` },
    status: 400,
  },
  {
    name: 'a limit past 500',
    caller: 'alice',
    request: { method: 'GET', path: `${base}?limit=100000` },
    status: 400,
  },
  {
    name: 'a sort on a field that is not a date',
    caller: 'alice',
    request: { method: 'GET', path: `${base}?sort=metadata` },
    status: 400,
  },
  {
    name: 'fifty-one fields',
    caller: 'alice',
    request: {
      method: 'GET',
      path: `${base}?${Array.from({ length: 51 }, (_, i) => `fields[]=f${i}`).join('&')}`,
    },
    status: 400,
  },
];

apiScenarios(scenarios, {
  baseUrl: () => server.url,
  headersFor: (caller) => bearer(tokens[caller]),
  setUp: async () => ({ conversation: await startConversation(userClient(server, tokens.alice)) }),
  everyAnswer: (answer) => {
    expect(answer.status).toBeLessThan(500);
    expect(String(answer.json.message ?? '')).not.toBe('');
  },
});
