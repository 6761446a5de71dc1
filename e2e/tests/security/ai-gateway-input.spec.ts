import { expect, test } from '../../support/test';
import { AUTH_ENV, SERVICE_TOKEN } from '../../support/auth-helpers';
import { apiScenarios, bearer, sendApiRequest, type ApiScenario } from '../../support/api-scenario';
import { startOpenAiDouble, type OpenAiDouble } from '../../support/openai-double';
import { DEFAULT_APP_ID } from '../../support/sdk-client';
import { startServer, type RunningServer } from '../../support/server-process';

// Hostile input to the AI gateway (`…/ai/openai/v1/chat/completions`, an OpenAI client's base URL): a body
// over the server's limit, JSON nested past the parser's depth, more messages, parts, tools, choices or
// fields than the gateway relays, a message nested deeper than a message is, values of the wrong type, and
// paths the gateway does not serve. Each is a 4xx (a path not served: 501) with our own message, in OpenAI's
// error shape too, never a 500, and the provider is never called. The caller is the service role, which no sign-in rule
// or token share stops: only the input bounds stand between it and the provider.

const CHAT = `/api/apps/${DEFAULT_APP_ID}/ai/openai/v1/chat/completions`;
const BUDGET = 5_000;
const user = (content: unknown) => ({ role: 'user', content });
const chat = (body: Record<string, unknown>) => ({ messages: [user('hi')], ...body });
const nested = (depth: number): unknown => (depth === 0 ? 'x' : [nested(depth - 1)]);

let double: OpenAiDouble;
let server: RunningServer;
/** chatsBefore is how many chats the provider had when the row started (none may be added). */
let chatsBefore = 0;

test.beforeAll(async () => {
  double = await startOpenAiDouble();
  server = await startServer({
    env: {
      ...AUTH_ENV,
      INTEGRATION_RATE_LIMIT_PER_MINUTE: '1000',
      LLM_PROVIDER_URL: double.baseUrl,
      LLM_DAILY_TOKEN_BUDGET: String(BUDGET),
    },
  });
});
test.afterAll(async () => {
  expect(await server.stop()).toBe(0);
  await double.close();
});

type Caller = 'service';
const post = (body: unknown) => ({ method: 'POST', path: CHAT, body });

const scenarios: ApiScenario<void, Caller>[] = [
  {
    name: 'a body over the 1 MB limit',
    caller: 'service',
    request: post(chat({ messages: [user('x'.repeat(1024 * 1024))] })),
    status: 413,
    message: 'larger than the 1 MB limit',
  },
  {
    name: 'JSON nested 5,000 deep',
    caller: 'service',
    request: { method: 'POST', path: CHAT, rawBody: `{"messages":${'['.repeat(5000)}${']'.repeat(5000)}}` },
    status: 400,
    message: 'nests deeper than 64 levels',
  },
  {
    name: 'a body that is not JSON',
    caller: 'service',
    request: { method: 'POST', path: CHAT, rawBody: '{"messages": [' },
    status: 400,
    message: 'not valid JSON',
  },
  {
    name: 'a body that is a list',
    caller: 'service',
    request: post([user('hi')]),
    status: 400,
    message: 'must be a JSON object',
  },
  {
    name: '10,000 messages',
    caller: 'service',
    request: post({ messages: Array.from({ length: 10_000 }, () => user('x')) }),
    status: 400,
    message: 'messages: must hold at most 256 messages',
  },
  {
    name: 'a message nested 40 deep',
    caller: 'service',
    request: post({ messages: [{ role: 'user', content: 'x', name: nested(40) }] }),
    status: 400,
    message: 'must not nest deeper than 8 levels',
  },
  {
    name: '5,000 content parts',
    caller: 'service',
    request: post({ messages: [user(Array.from({ length: 5000 }, () => ({ type: 'text', text: 'x' })))] }),
    status: 400,
    message: 'must have at most 100 parts',
  },
  {
    name: '1,000 choices',
    caller: 'service',
    request: post(chat({ n: 1000 })),
    status: 400,
    message: 'n: must be at most 8',
  },
  {
    name: '1,000 tools',
    caller: 'service',
    request: post(chat({ tools: Array.from({ length: 1000 }, () => ({ type: 'function' })) })),
    status: 400,
    message: 'tools: must offer at most 128 tools',
  },
  {
    name: '5,000 top-level fields',
    caller: 'service',
    request: post(chat(Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`f${i}`, i])))),
    status: 400,
    message: 'more than 64 fields',
  },
  {
    name: 'a model name of 100,000 characters',
    caller: 'service',
    request: post(chat({ model: 'm'.repeat(100_000) })),
    status: 400,
    message: 'model: must be at most 200 characters',
  },
  {
    name: 'values of the wrong type (stream, max_tokens, content)',
    caller: 'service',
    request: post({ messages: [user(42)], stream: 'yes', max_tokens: -5 }),
    status: 400,
    mustContain: ['messages.0.content', 'stream: must be true or false', 'max_tokens: must be positive'],
  },
  {
    name: 'a NUL character in a message',
    caller: 'service',
    request: { method: 'POST', path: CHAT, rawBody: '{"messages":[{"role":"user","content":"a\\u0000b"}]}' },
    status: 400,
    message: 'NUL',
  },
  {
    name: 'an endpoint the gateway does not serve (embeddings)',
    caller: 'service',
    request: { method: 'POST', path: CHAT.replace('chat/completions', 'embeddings'), body: { input: 'x' } },
    status: 501,
    message: 'answers POST chat/completions and GET models only',
  },
];

test.describe('hostile chat bodies are refused before the provider is called', () => {
  apiScenarios(scenarios, {
    baseUrl: () => server.url,
    headersFor: () => bearer(SERVICE_TOKEN),
    setUp: async () => {
      chatsBefore = double.chats().length;
    },
    everyAnswer: (answer) => {
      // A 4xx, or the 501 of a path not served: never a failure of the server's own.
      expect(answer.status < 500 || answer.status === 501, `status ${answer.status}`).toBe(true);
      // OpenAI's clients read the error object; the SDK reads the message.
      expect(answer.json.error).toMatchObject({ message: answer.json.message });
      expect(double.chats().length).toBe(chatsBefore);
    },
  });
});

test('a max_tokens past the daily budget is cut to it on its way to the provider', async () => {
  const answer = await sendApiRequest(
    server.url,
    post(chat({ max_tokens: 10 ** 12 })),
    bearer(SERVICE_TOKEN),
  );
  expect(answer.status).toBe(200);
  expect(double.chats().at(-1)?.max_tokens).toBe(BUDGET);
});
