import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { expect, test } from '../../support/test';
import { api, AUTH_ENV, SERVICE_TOKEN } from '../../support/auth-helpers';
import { startOAuth2ServiceDouble, type OAuth2ServiceDouble } from '../../support/oauth2-service-double';
import { dumpDatabaseText } from '../../support/postgres';
import { DEFAULT_APP_ID } from '../../support/sdk-client';
import {
  currentDatabaseMode,
  removeServerData,
  REPO_ROOT,
  startServer,
  type RunningServer,
} from '../../support/server-process';

// Two instances on one PostgreSQL database: an expiring connector token read on both at once is refreshed
// once (the row's lease), both hand out the same new token, and no token is stored in clear.
// Runs in the api-postgres project (.ci/run sets DATABASE_URL).

const APP = DEFAULT_APP_ID;
let crm: OAuth2ServiceDouble;
let a: RunningServer;
let b: RunningServer;

test.beforeAll(async () => {
  test.skip(currentDatabaseMode() !== 'postgres', 'needs the api-postgres project (DATABASE_URL)');
  crm = await startOAuth2ServiceDouble();
  const env = {
    ...AUTH_ENV,
    APP_ID: APP,
    PROJECT_DIR: join(REPO_ROOT, 'e2e/fixtures/connectors/base44'),
    OUTBOUND_PRIVATE_HOSTS: crm.hostPort,
    // One secrets key for both: each seals and opens the other's tokens.
    SECRETS_KEY: randomBytes(32).toString('base64'),
    JWT_SECRET: 'e2e-jwt-secret-0123456789abcdefghijklmnopqrstuvwxyz',
  };
  a = await startServer({ env, keepData: true });
  b = await startServer({ env, databaseUrl: a.databaseUrl });
  const secrets = {
    crm_oauth_client_id: crm.clientId,
    crm_oauth_client_secret: crm.clientSecret,
    crm_oauth_authorize_url: `${crm.origin}/authorize`,
    crm_oauth_token_url: `${crm.origin}/token`,
    crm_oauth_api_base_url: crm.origin,
  };
  for (const [name, value] of Object.entries(secrets)) {
    const set = await api(a, `/api/apps/${APP}/admin/secrets/${name}`, {
      method: 'PUT',
      token: SERVICE_TOKEN,
      body: { value },
    });
    expect(set.status).toBe(200);
  }
});

test.afterAll(async () => {
  await b?.stop();
  await a?.stop();
  await crm?.close();
  if (a) await removeServerData(a);
});

test('an expiring token read on two instances at once is refreshed once, and stored sealed', async () => {
  crm.accessTokenTtlSeconds = 30; // inside the refresh margin
  const started = await api(a, `/api/apps/${APP}/admin/connectors/crm/connect`, { token: SERVICE_TOKEN });
  const atDouble = await fetch(String(started.json.redirect_url), { redirect: 'manual' });
  const callback = await fetch(atDouble.headers.get('location') ?? '', { redirect: 'manual' });
  expect(callback.status).toBe(200);
  crm.accessTokenTtlSeconds = 3600; // the refreshed token is fresh: one refresh is all it takes

  const before = crm.refreshes;
  const read = (server: RunningServer) =>
    api(server, `/api/apps/${APP}/external-auth/tokens/crm`, { method: 'GET', token: SERVICE_TOKEN });
  const answers = await Promise.all([read(a), read(b), read(a), read(b), read(b), read(a)]);
  expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
  expect(crm.refreshes).toBe(before + 1);
  const tokens = new Set(answers.map((answer) => answer.json.access_token));
  expect(tokens.size).toBe(1);

  const dump = await dumpDatabaseText(a);
  for (const token of tokens) expect(dump).not.toContain(String(token));
  expect(dump).not.toContain('rt-'); // the refresh tokens the double issues
});
