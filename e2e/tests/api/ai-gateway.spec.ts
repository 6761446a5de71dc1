import OpenAI, { APIError, AuthenticationError, RateLimitError } from 'openai';
import { expect, test } from '../../support/test';
import {
  AUTH_ENV,
  SERVICE_TOKEN,
  api,
  createUser,
  serviceClient,
  uniqueEmail,
  userClient,
} from '../../support/auth-helpers';
import { startOpenAiDouble, USAGE, type OpenAiDouble } from '../../support/openai-double';
import { DEFAULT_APP_ID } from '../../support/sdk-client';
import { startServer, type RunningServer } from '../../support/server-process';

// The AI gateway (`aiGateway.connection()` of the SDK) driven as an app drives it: the official `openai`
// client pointed at the base URL the real SDK hands out, against a real server and the OpenAI-compatible
// double. Answers streamed and not, the model list, the model names, who may call, the daily budget as the
// client's RateLimitError, failures without the provider's key, and the usage the operator reads.
const KEY = 'sk-e2e-gateway-provider-key-0123456789';
const NO_LIMITS = {
  INTEGRATION_RATE_LIMIT_PER_MINUTE: '1000',
  INTEGRATION_RATE_LIMIT_PER_USER_PER_MINUTE: '1000',
};

/** openAiFor is the app's own OpenAI client on a connection (no retries: a refusal is what is checked). */
const openAiFor = (connection: { baseURL: string; token: string }) =>
  new OpenAI({ baseURL: connection.baseURL, apiKey: connection.token, maxRetries: 0, timeout: 20_000 });

/** refusal awaits a call expected to fail and returns the client's error. */
async function refusal(call: Promise<unknown>): Promise<APIError> {
  const error = await call.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof APIError)) throw new Error(`expected an APIError, got ${String(error)}`);
  return error;
}

let double: OpenAiDouble;
test.beforeAll(async () => {
  double = await startOpenAiDouble();
});
test.afterAll(async () => {
  await double.close();
});

test('without a provider, chat and models answer 503 naming LLM_PROVIDER_URL', async ({
  sharedAuthServer,
}) => {
  const openai = openAiFor(serviceClient(sharedAuthServer).asServiceRole.aiGateway.connection());
  for (const call of [
    () => openai.chat.completions.create({ model: 'automatic', messages: [{ role: 'user', content: 'hi' }] }),
    () => openai.models.list(),
  ]) {
    const error = await refusal(call());
    expect(error.status).toBe(503);
    expect(error.message).toContain('LLM_PROVIDER_URL');
  }
});

test.describe('with a provider, on a private app', () => {
  let server: RunningServer;
  let token: string;
  let userId: string;

  test.beforeAll(async () => {
    server = await startServer({
      env: {
        ...AUTH_ENV,
        ...NO_LIMITS,
        APP_VISIBILITY: 'private_with_login',
        LLM_PROVIDER_URL: double.baseUrl,
        LLM_API_KEY: KEY,
        LLM_MODEL: 'double-default',
        LLM_MODEL_MAP: 'gemini_3_flash=double-flash',
        LLM_TIMEOUT_MS: '1500',
      },
    });
    ({
      token,
      user: { id: userId },
    } = await createUser(server, { email: uniqueEmail('gateway') }));
  });
  test.afterAll(async () => {
    expect(await server.stop()).toBe(0);
  });

  const lastChat = () => double.chats().at(-1) ?? {};
  const userOpenAi = () => openAiFor(userClient(server, token).aiGateway.connection());

  test("the SDK's connection() is the gateway's base URL and the caller's own token", () => {
    const base = `${server.url}/api/apps/${DEFAULT_APP_ID}/ai`;
    expect(userClient(server, token).aiGateway.connection()).toEqual({ baseURL: `${base}/openai/v1`, token });
    expect(serviceClient(server).asServiceRole.aiGateway.connection({ provider: 'typesafe' })).toEqual({
      baseURL: `${base}/typesafe/v1`,
      token: SERVICE_TOKEN,
    });
  });

  test('a chat completion passes through: "automatic" is LLM_MODEL, our key goes upstream, never the caller\'s', async () => {
    const answer = await userOpenAi().chat.completions.create({
      model: 'automatic',
      messages: [{ role: 'user', content: 'hello gateway' }],
      temperature: 0.3,
    });
    expect(answer.choices[0]?.message.content).toBe('echo: hello gateway');
    expect(answer.usage).toMatchObject(USAGE);
    expect(lastChat()).toMatchObject({ model: 'double-default', temperature: 0.3 });
    expect(double.requests.at(-1)?.authorization).toBe(`Bearer ${KEY}`);
  });

  test('app model names map through LLM_MODEL_MAP; tools pass through to the model', async () => {
    const answer = await userOpenAi().chat.completions.create({
      model: 'gemini_3_flash',
      messages: [{ role: 'user', content: 'what is the weather? [use-tool]' }],
      tools: [
        {
          type: 'function',
          function: {
            name: 'weather',
            parameters: { type: 'object', properties: { city: { type: 'string' } } },
          },
        },
      ],
    });
    expect(lastChat().model).toBe('double-flash');
    const call = answer.choices[0]?.message.tool_calls?.[0];
    expect(call?.type === 'function' ? call.function : undefined).toEqual({
      name: 'weather',
      arguments: '{"city":"text"}',
    });
  });

  test('stream: true is relayed as server-sent events, with usage only when the caller asks for it', async () => {
    const openai = userOpenAi();
    const stream = await openai.chat.completions.create({
      model: 'automatic',
      messages: [{ role: 'user', content: 'stream me please' }],
      stream: true,
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe(
      'echo: stream me please',
    );
    // The usage the gateway asked for is not handed to a caller that did not ask (choices would be empty).
    expect(chunks.every((chunk) => chunk.choices.length === 1)).toBe(true);
    expect(lastChat().stream_options).toEqual({ include_usage: true });

    const counted = await openai.chat.completions.create({
      model: 'automatic',
      messages: [{ role: 'user', content: 'count me' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let usage: unknown = null;
    for await (const chunk of counted) usage = chunk.usage ?? usage;
    expect(usage).toMatchObject(USAGE);
  });

  test('the model list passes through, under typesafe/v1 too (service role)', async () => {
    const models = await userOpenAi().models.list();
    expect(models.data.map((model) => model.id)).toEqual(['double']);
    const typesafe = openAiFor(
      serviceClient(server).asServiceRole.aiGateway.connection({ provider: 'typesafe' }),
    );
    expect((await typesafe.models.list()).data).toHaveLength(1);
    const answer = await typesafe.chat.completions.create({
      model: 'automatic',
      messages: [{ role: 'user', content: 'from the backend' }],
    });
    expect(answer.choices[0]?.message.content).toBe('echo: from the backend');
  });

  test('anonymous callers and rejected tokens are refused on a private app (401 AuthenticationError)', async () => {
    const chats = double.chats().length;
    const base = userClient(server).aiGateway.connection().baseURL;
    for (const apiKey of ['anonymous', 'not-a-token']) {
      const openai = openAiFor({ baseURL: base, token: apiKey });
      const error = await refusal(
        openai.chat.completions.create({ model: 'automatic', messages: [{ role: 'user', content: 'hi' }] }),
      );
      expect(error).toBeInstanceOf(AuthenticationError);
      expect((await refusal(openai.models.list())).status).toBe(401);
    }
    expect(double.chats().length).toBe(chats);
  });

  test('a provider failure is a 502 and a slow one a 504, with safe messages: the key is in no answer or log', async () => {
    const openai = userOpenAi();
    const failed = await refusal(
      openai.chat.completions.create({
        model: 'automatic',
        messages: [{ role: 'user', content: '[fail] now' }],
      }),
    );
    expect(failed.status).toBe(502);
    expect(failed.message).toBe('502 The LLM provider failed (HTTP 500)');
    expect(JSON.stringify(failed.error)).not.toContain(KEY);
    const slow = await refusal(
      openai.chat.completions.create({
        model: 'automatic',
        messages: [{ role: 'user', content: '[delay:4000]' }],
      }),
    );
    expect(slow.status).toBe(504);
    expect(slow.message).toContain('LLM_TIMEOUT_MS');
    await expect.poll(() => server.logs()).toContain('LLM provider failed');
    expect(server.logs()).not.toContain(KEY);
  });

  test('every call is recorded as AIGateway for the operator: model, caller and tokens', async () => {
    await userOpenAi().chat.completions.create({
      model: 'gemini_3_flash',
      messages: [{ role: 'user', content: 'record me' }],
    });
    const usage = await api(server, `/api/apps/${DEFAULT_APP_ID}/admin/llm-usage?limit=1`, {
      method: 'GET',
      token: SERVICE_TOKEN,
    });
    expect((usage.json.items as unknown[])[0]).toMatchObject({
      integration: 'AIGateway',
      model: 'double-flash',
      caller_kind: 'user',
      user_id: userId,
      ...USAGE,
    });
  });
});

test.describe('cost guards, on an app public without login', () => {
  let server: RunningServer;
  test.beforeAll(async () => {
    server = await startServer({
      env: {
        ...AUTH_ENV,
        ...NO_LIMITS,
        APP_VISIBILITY: 'public_without_login',
        LLM_PROVIDER_URL: double.baseUrl,
        // One call of the double (20 tokens) spends the day.
        LLM_DAILY_TOKEN_BUDGET: '20',
        LLM_USER_DAILY_TOKENS: '20',
        LLM_IP_DAILY_TOKENS: '20',
        LLM_SERVICE_RESERVE_PERCENT: '0',
        INTEGRATION_RATE_LIMIT_PER_USER_PER_MINUTE: '2',
      },
    });
  });
  test.afterAll(async () => {
    expect(await server.stop()).toBe(0);
  });

  test('anonymous visitors are admitted; once the daily budget is spent the client gets a RateLimitError', async () => {
    // An anonymous visitor's connection has no token; the OpenAI client needs some key.
    const connection = userClient(server).aiGateway.connection();
    expect(connection.token).toBe('');
    const openai = openAiFor({ ...connection, token: 'anonymous' });
    const ask = () =>
      openai.chat.completions.create({ model: 'automatic', messages: [{ role: 'user', content: 'hi' }] });
    expect((await ask()).choices[0]?.message.content).toBe('echo: hi');
    const refused = await refusal(ask());
    expect(refused).toBeInstanceOf(RateLimitError);
    expect(refused.message).toContain('LLM_DAILY_TOKEN_BUDGET');
    expect(Number(refused.headers?.get('retry-after'))).toBeGreaterThan(60);
    // The budget comes back tomorrow: the client is told not to retry on its own.
    expect(refused.headers?.get('x-should-retry')).toBe('false');
    expect(refused.type).toBe('rate_limit_error');
  });

  test('gateway calls spend the integration rate limits as Core integrations do (per user here)', async () => {
    const { token } = await createUser(server, { email: uniqueEmail('gateway-rate') });
    const openai = openAiFor(userClient(server, token).aiGateway.connection());
    for (let call = 0; call < 2; call += 1) expect((await openai.models.list()).data).toHaveLength(1);
    const refused = await refusal(openai.models.list());
    expect(refused).toBeInstanceOf(RateLimitError);
    expect(refused.message).toContain('Too many integration calls');
  });
});
