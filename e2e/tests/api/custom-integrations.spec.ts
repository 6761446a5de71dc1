import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../../support/test';
import {
  api,
  AUTH_ENV,
  createUser,
  failure,
  SERVICE_TOKEN,
  uniqueEmail,
  userClient,
} from '../../support/auth-helpers';
import { runCli } from '../../support/cli-process';
import { DEFAULT_APP_ID } from '../../support/sdk-client';
import { freePort, startServer, type RunningServer } from '../../support/server-process';
import { startUpstreamDouble, type UpstreamDouble } from '../../support/upstream-double';

// `integrations.custom.call(slug, operationId, params)` through a real server process: the project's
// `integrations/<slug>.jsonc` files point at a REST double on 127.0.0.1, which OUTBOUND_PRIVATE_HOSTS lets
// the guarded fetch reach; every other private address stays refused.

const TOKEN = 'double-token-0123456789';
const openapi = {
  openapi: '3.0.3',
  paths: {
    '/repos/{owner}/{repo}': {
      parameters: [
        { name: 'owner', in: 'path', required: true, schema: { type: 'string' } },
        { name: 'repo', in: 'path', required: true, schema: { type: 'string' } },
      ],
      get: {
        operationId: 'getRepo',
        parameters: [{ name: 'per_page', in: 'query', schema: { type: 'integer' } }],
      },
    },
    '/repos/{owner}/{repo}/issues': {
      parameters: [
        { name: 'owner', in: 'path', required: true },
        { name: 'repo', in: 'path', required: true },
      ],
      post: { requestBody: { required: true, content: { 'application/json': {} } } },
    },
    '/missing': { get: {} },
    '/broken': { get: {} },
    '/slow': { get: {} },
    '/text': { get: {} },
  },
};

let double: UpstreamDouble;
let server: RunningServer;
let projectDir: string;

async function writeIntegration(name: string, value: unknown) {
  await writeFile(join(projectDir, 'integrations', `${name}.jsonc`), JSON.stringify(value, null, 2));
}

const call = (slug: string, operation: string, params?: Record<string, unknown>, token?: string) =>
  userClient(server, token).integrations.custom.call(slug, operation, params) as Promise<{
    success: boolean;
    status_code: number;
    data: Record<string, unknown>;
  }>;

const raw = (slug: string, operation: string, body: unknown, token?: string) =>
  api(server, `/api/apps/${DEFAULT_APP_ID}/integrations/custom/${slug}/${operation}`, {
    body,
    ...(token ? { token } : {}),
  });

test.beforeAll(async () => {
  double = await startUpstreamDouble();
  projectDir = await mkdtemp(join(tmpdir(), 'queen-integrations-'));
  await mkdir(join(projectDir, 'integrations'));
  const auth = { header: 'Authorization', secret: 'DOUBLE_TOKEN', prefix: 'Bearer ' };
  await writeIntegration('double', { baseUrl: double.origin, openapi, auth, timeoutMs: 1000 });
  await writeFile(join(projectDir, 'integrations', 'double.openapi.json'), JSON.stringify(openapi));
  await writeIntegration('from-file', {
    baseUrl: double.origin,
    openapi: './double.openapi.json',
    auth: { header: 'X-Api-Key', secret: 'ENV_ONLY_TOKEN' },
  });
  await writeIntegration('no-secret', {
    baseUrl: double.origin,
    openapi,
    auth: { header: 'X-Key', secret: 'NEVER_SET' },
  });
  await writeIntegration('private', { baseUrl: 'http://10.0.0.1:8080', openapi });
  await writeIntegration('loopback', { baseUrl: `http://127.0.0.1:${await freePort()}`, openapi });
  const closedPort = await freePort();
  await writeIntegration('closed', { baseUrl: `http://127.0.0.1:${closedPort}`, openapi });
  server = await startServer({
    env: {
      ...AUTH_ENV,
      APP_ID: DEFAULT_APP_ID,
      PROJECT_DIR: projectDir,
      OUTBOUND_PRIVATE_HOSTS: `${double.hostPort},127.0.0.1:${closedPort}`,
      INTEGRATION_SECRET_ENV_ONLY_TOKEN: 'env-token-value',
      INTEGRATION_RATE_LIMIT_PER_MINUTE: '100000',
      INTEGRATION_RATE_LIMIT_PER_USER_PER_MINUTE: '100000',
    },
  });
  const set = await runCli(
    ['secrets', 'set', 'DOUBLE_TOKEN'],
    {
      DATA_DIR: server.dataDir,
      SERVICE_TOKEN,
      APP_ID: DEFAULT_APP_ID,
      DATABASE_URL: server.databaseUrl ?? '',
    },
    TOKEN,
  );
  expect(set.code).toBe(0);
});

test.afterAll(async () => {
  await server.stop();
  await double.close();
  await rm(projectDir, { recursive: true, force: true });
});

test('a call reaches the upstream with its parameters and the secret header, and answers {success, status_code, data}', async () => {
  const result = await call('double', 'get:/repos/{owner}/{repo}', {
    pathParams: { owner: 'queen bee', repo: 'hive' },
    queryParams: { per_page: 5 },
  });
  expect(result).toEqual({
    success: true,
    status_code: 200,
    data: { owner: 'queen bee', repo: 'hive', query: { per_page: '5' } },
  });
  const seen = double.calls.at(-1);
  expect(seen?.url).toBe('/repos/queen%20bee/hive?per_page=5');
  expect(seen?.headers.authorization).toBe(`Bearer ${TOKEN}`);
  expect(server.logs()).not.toContain(TOKEN);
  // The operationId names the same operation.
  expect((await call('double', 'getRepo', { pathParams: { owner: 'a', repo: 'b' } })).data).toMatchObject({
    owner: 'a',
  });
});

test('a JSON payload is sent, upstream 4xx and text answers come back as they are', async () => {
  const created = await call('double', 'post:/repos/{owner}/{repo}/issues', {
    pathParams: { owner: 'o', repo: 'r' },
    payload: { title: 'Bug' },
  });
  expect(created).toEqual({ success: true, status_code: 201, data: { created: { title: 'Bug' } } });
  expect(double.calls.at(-1)?.headers['content-type']).toBe('application/json');
  expect(await call('double', 'get:/missing')).toEqual({
    success: false,
    status_code: 404,
    data: { message: 'Not Found' },
  });
  expect(await call('double', 'get:/text')).toEqual({
    success: true,
    status_code: 200,
    data: 'hello from upstream',
  });
});

test('the OpenAPI document may live in a .json file; the header secret may come from INTEGRATION_SECRET_<NAME>', async () => {
  await call('from-file', 'get:/repos/{owner}/{repo}', { pathParams: { owner: 'o', repo: 'r' } });
  expect(double.calls.at(-1)?.headers['x-api-key']).toBe('env-token-value');
  const missing = await failure(call('no-secret', 'get:/text'));
  expect(missing.status).toBe(503);
  expect(missing.message).toContain('needs the secret NEVER_SET');
});

test('a secret changed with the CLI is used by the next call', async () => {
  const env = {
    DATA_DIR: server.dataDir,
    SERVICE_TOKEN,
    APP_ID: DEFAULT_APP_ID,
    DATABASE_URL: server.databaseUrl ?? '',
  };
  expect((await runCli(['secrets', 'set', 'DOUBLE_TOKEN'], env, 'rotated-token')).code).toBe(0);
  await call('double', 'get:/text');
  expect(double.calls.at(-1)?.headers.authorization).toBe('Bearer rotated-token');
  expect((await runCli(['secrets', 'set', 'DOUBLE_TOKEN'], env, TOKEN)).code).toBe(0);
});

test('an unknown slug or operation is 404, with or without a token', async () => {
  const anonymous = await failure(call('nonexistent-integration-slug', 'nonexistent-operation', {}));
  expect(anonymous.status).toBe(404);
  const user = await createUser(server, { email: uniqueEmail('custom') });
  expect((await failure(call('nonexistent-integration-slug', 'x', {}, user.token))).status).toBe(404);
  const operation = await failure(call('double', 'nonexistent-operation-id', {}, user.token));
  expect(operation.status).toBe(404);
  expect(operation.message).toContain('has no operation "nonexistent-operation-id"');
  expect((await failure(call('double', 'delete:/repos/{owner}/{repo}'))).status).toBe(404);
});

test('parameters are checked against the operation before anything is sent (400 naming the parameter)', async () => {
  const before = double.calls.length;
  const cases: [Record<string, unknown>, string][] = [
    [{ path_params: { owner: 'o' } }, 'path_params.repo: is required'],
    [
      { path_params: { owner: 'o', repo: 'r' }, query_params: { per_page: 'many' } },
      'per_page: must be an integer',
    ],
    [
      { path_params: { owner: 'o', repo: 'r' }, query_params: { admin: 'true' } },
      'declares no such query parameter',
    ],
    [
      { path_params: { owner: 'o', repo: 'r' }, headers: { Authorization: 'Bearer mine' } },
      'headers.Authorization',
    ],
    [{ path_params: { owner: 'o', repo: 'r' }, payload: { x: 1 } }, 'declares no request body'],
    [{ pathParams: { owner: 'o', repo: 'r' } }, 'pathParams'],
  ];
  for (const [body, message] of cases) {
    const answer = await raw('double', 'get:/repos/{owner}/{repo}', body);
    expect(answer.status, JSON.stringify(body)).toBe(400);
    expect(String(answer.json.message)).toContain(message);
  }
  const noBody = await raw('double', 'post:/repos/{owner}/{repo}/issues', {
    path_params: { owner: 'o', repo: 'r' },
  });
  expect(noBody.status).toBe(400);
  expect(double.calls.length).toBe(before);
});

test('upstream failures: 5xx → 502, unreachable → 502, too slow → 504', async () => {
  const broken = await failure(call('double', 'get:/broken'));
  expect(broken.status).toBe(502);
  expect(broken.message).toContain('upstream answered 503');
  const closed = await failure(call('closed', 'get:/text'));
  expect(closed.status).toBe(502);
  expect(closed.message).toContain('could not be reached');
  const slow = await failure(call('double', 'get:/slow'));
  expect(slow.status).toBe(504);
  expect(slow.message).toContain('did not answer within 1000 ms');
});

test('a base URL on a private address not in OUTBOUND_PRIVATE_HOSTS is refused', async () => {
  for (const slug of ['private', 'loopback']) {
    const refused = await raw(slug, 'get:/text', {});
    expect(refused.status, slug).toBe(400);
    expect(refused.json).toMatchObject({ extra_data: { reason: 'outbound_refused' } });
    expect(String(refused.json.message)).toContain('only public internet addresses');
  }
});

test('on an app that needs sign-in, anonymous callers get 401 and signed-in users are served', async () => {
  const settings = (visibility: string) =>
    api(server, `/api/apps/${DEFAULT_APP_ID}/admin/settings`, {
      method: 'PUT',
      token: SERVICE_TOKEN,
      body: { visibility },
    });
  expect((await settings('public_with_login')).status).toBe(200);
  try {
    const anonymous = await failure(call('double', 'get:/text'));
    expect(anonymous.status).toBe(401);
    // An unknown integration is still a 404 for anyone (the SDK's own tests expect it).
    expect((await failure(call('nonexistent-integration-slug', 'x', {}))).status).toBe(404);
    const user = await createUser(server, { email: uniqueEmail('signed-in') });
    expect((await call('double', 'get:/text', {}, user.token)).success).toBe(true);
    expect((await raw('double', 'get:/text', {}, 'not-a-token')).status).toBe(401);
  } finally {
    await settings('public_without_login');
  }
});

test('calls spend the integration budget: over it, 429 with Retry-After', async () => {
  const limited = await startServer({
    env: {
      ...AUTH_ENV,
      APP_ID: DEFAULT_APP_ID,
      PROJECT_DIR: projectDir,
      OUTBOUND_PRIVATE_HOSTS: double.hostPort,
      INTEGRATION_RATE_LIMIT_PER_MINUTE: '2',
    },
  });
  try {
    // DOUBLE_TOKEN is not set on this server: its 503s still spend the budget (spent before the call).
    const path = `/api/apps/${DEFAULT_APP_ID}/integrations/custom/double/get:/missing`;
    expect((await api(limited, path, { body: {} })).status).toBe(503);
    expect((await api(limited, path, { body: {} })).status).toBe(503);
    const over = await api(limited, path, { body: {} });
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
  } finally {
    await limited.stop();
  }
});
