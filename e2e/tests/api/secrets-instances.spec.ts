import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../../support/test';
import { api, AUTH_ENV, SERVICE_TOKEN, userClient } from '../../support/auth-helpers';
import { DEFAULT_APP_ID } from '../../support/sdk-client';
import { currentDatabaseMode, startServer, type RunningServer } from '../../support/server-process';
import { startUpstreamDouble, type UpstreamDouble } from '../../support/upstream-double';

// Two instances on one PostgreSQL database and one Redis, sharing SECRETS_KEY: a secret set through
// instance A is told to instance B at once (its subscribers, e.g. functions, restart) and B decrypts it.
// Runs in the api-postgres project when REDIS_URL is set.
const redisUrl = process.env.REDIS_URL;
let a: RunningServer;
let b: RunningServer;
let double: UpstreamDouble;
let projectDir: string;

test.beforeAll(async () => {
  test.skip(
    currentDatabaseMode() !== 'postgres' || !redisUrl,
    'needs the api-postgres project (DATABASE_URL) and REDIS_URL',
  );
  double = await startUpstreamDouble();
  projectDir = await mkdtemp(join(tmpdir(), 'queen-secrets-instances-'));
  await mkdir(join(projectDir, 'integrations'));
  await writeFile(
    join(projectDir, 'integrations', 'echo.jsonc'),
    JSON.stringify({
      baseUrl: double.origin,
      openapi: { openapi: '3.0.0', paths: { '/text': { get: {} } } },
      auth: { header: 'X-Token', secret: 'SHARED_TOKEN' },
    }),
  );
  const env = {
    ...AUTH_ENV,
    APP_ID: DEFAULT_APP_ID,
    PROJECT_DIR: projectDir,
    JWT_SECRET: 'e2e-jwt-secret-0123456789abcdefghijklmnopqrstuvwxyz',
    SECRETS_KEY: randomBytes(32).toString('base64'),
    OUTBOUND_PRIVATE_HOSTS: double.hostPort,
    REDIS_URL: redisUrl ?? '',
  };
  a = await startServer({ env });
  b = await startServer({ env, databaseUrl: a.databaseUrl });
});

test.afterAll(async () => {
  await b?.stop();
  await a?.stop();
  await double?.close();
  if (projectDir) await rm(projectDir, { recursive: true, force: true });
});

test('a secret set through one instance is told to the other, which decrypts it', async () => {
  const value = `shared-${randomBytes(8).toString('hex')}`;
  const set = await api(a, `/api/apps/${DEFAULT_APP_ID}/admin/secrets/SHARED_TOKEN`, {
    method: 'PUT',
    token: SERVICE_TOKEN,
    body: { value },
  });
  expect(set.status).toBe(200);
  // B's subscribers hear of it through Redis (B logs each change it hears: the name, never the value).
  await expect.poll(() => /"name":"SHARED_TOKEN","kind":"set".*app secret changed/.test(b.logs())).toBe(true);
  const result = await userClient(b).integrations.custom.call('echo', 'get:/text', {});
  expect(result).toMatchObject({ success: true, status_code: 200 });
  expect(double.calls.at(-1)?.headers['x-token']).toBe(value);
  for (const server of [a, b]) expect(server.logs()).not.toContain(value);
});
