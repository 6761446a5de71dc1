import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { expect, test } from '../../support/test';
import {
  api,
  AUTH_ENV,
  createUser,
  SERVICE_TOKEN,
  serviceClient,
  uniqueEmail,
  userClient,
} from '../../support/auth-helpers';
import { startOidcProvider, type TestProvider } from '../../support/oidc-provider';
import { atProvider, visit, CookieJar } from '../../support/provider-sign-in-flow';
import { DEFAULT_APP_ID } from '../../support/sdk-client';
import { freePort, REPO_ROOT, startServer, type RunningServer } from '../../support/server-process';

// Connectors (issue 27) against a real OAuth 2 server offline: oidc-provider stands in for Google through
// `google_oauth_discovery_url`, with refresh tokens. The app's connection (the operator's connect), a
// user's own (connectAppUser), the service role's token reads, refresh, a refused refresh, a hanging token
// endpoint, bad states and foreign return URLs.

const APP = DEFAULT_APP_ID;
const PROJECT = join(REPO_ROOT, 'e2e/fixtures/connectors/base44');
const CONNECTOR_ID = '69a1c0ffee0000000000cal1';

let server: RunningServer;
let provider: TestProvider;
let hanging: Server;
let hangingUrl = '';

async function setSecret(name: string, value: string) {
  const result = await api(server, `/api/apps/${APP}/admin/secrets/${name}`, {
    method: 'PUT',
    token: SERVICE_TOKEN,
    body: { value },
  });
  expect(result.status).toBe(200);
}

async function deleteSecret(name: string) {
  await api(server, `/api/apps/${APP}/admin/secrets/${name}`, { method: 'DELETE', token: SERVICE_TOKEN });
}

function account(email: string) {
  const id = `acct-${randomBytes(6).toString('hex')}`;
  provider.accounts.set(id, { email, email_verified: true });
  return id;
}

/** grant opens redirectUrl as a browser would, signs accountId in at the provider, and opens our callback. */
async function grant(redirectUrl: string, accountId: string, cancel = false): Promise<Response> {
  const callback = await atProvider(provider, redirectUrl, accountId, cancel);
  return visit(new CookieJar(), callback);
}

async function connectApp(email = uniqueEmail('calendar-owner')): Promise<Response> {
  const started = await api(server, `/api/apps/${APP}/admin/connectors/googlecalendar/connect`, {
    token: SERVICE_TOKEN,
  });
  expect(started.status).toBe(200);
  return grant(String(started.json.redirect_url), account(email));
}

const connectors = () => serviceClient(server).asServiceRole.connectors;

test.describe.serial('connectors', () => {
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    const providerPort = await freePort();
    server = await startServer({
      database: 'pglite',
      env: { ...AUTH_ENV, APP_ID: APP, PROJECT_DIR: PROJECT, CORS_ORIGINS: 'https://front.example' },
    });
    provider = await startOidcProvider(`${server.url}/api/external-auth/callback`, providerPort);
    await setSecret('google_oauth_client_id', provider.clientId);
    await setSecret('google_oauth_client_secret', provider.clientSecret);
    await setSecret('google_oauth_discovery_url', `${provider.issuer}/.well-known/openid-configuration`);
    hanging = createServer(() => undefined); // accepts, never answers
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const address = hanging.address();
    hangingUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/token`;
  });

  test.afterAll(async () => {
    hanging?.closeAllConnections();
    await new Promise<void>((resolve) => (hanging ? hanging.close(() => resolve()) : resolve()));
    await provider?.close();
    await server?.stop();
  });

  test('start-up names what an unconfigured connector needs and the redirect URI to register', async () => {
    expect(server.logs()).toContain(
      'connector slack: not configured: set slack_oauth_client_id and slack_oauth_client_secret',
    );
    expect(server.logs()).toContain(`${server.url}/api/external-auth/callback`);
    const listed = await api(server, `/api/apps/${APP}/admin/connectors`, {
      method: 'GET',
      token: SERVICE_TOKEN,
    });
    expect(listed.status).toBe(200);
    const byType = Object.fromEntries(
      (listed.json.connectors as Array<{ type: string }>).map((entry) => [entry.type, entry]),
    );
    expect(byType.slack).toMatchObject({ status: 'not_configured', configured: false });
    expect(byType.googlecalendar).toMatchObject({
      status: 'not_connected',
      configured: true,
      connector_id: CONNECTOR_ID,
      scopes: ['openid', 'email'],
      app_user_connections: 0,
    });
  });

  test('refusals are {message, code}: not declared, not configured, not connected', async () => {
    const missing = await api(server, `/api/apps/${APP}/external-auth/tokens/notion`, {
      method: 'GET',
      token: SERVICE_TOKEN,
    });
    expect(missing.status).toBe(404);
    expect(missing.json.code).toBe('connector_not_found');
    const slack = await api(server, `/api/apps/${APP}/external-auth/tokens/slack`, {
      method: 'GET',
      token: SERVICE_TOKEN,
    });
    expect(slack.status).toBe(409);
    expect(slack.json).toMatchObject({ code: 'connector_not_configured' });
    expect(String(slack.json.message)).toContain('slack_oauth_client_id');
    const notConnected = await api(server, `/api/apps/${APP}/external-auth/tokens/googlecalendar`, {
      method: 'GET',
      token: SERVICE_TOKEN,
    });
    expect(notConnected.status).toBe(404);
    expect(notConnected.json.code).toBe('connector_not_connected');
    expect(String(notConnected.json.message)).toContain('npm run cli -- connectors connect googlecalendar');
  });

  test("the operator connects the app's calendar; the service role reads a provider token by type or id", async () => {
    const page = await connectApp();
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('googlecalendar is connected. You can close this window.');

    const connection = await connectors().getConnection('googlecalendar');
    expect(await provider.userinfo(connection.accessToken)).toMatch(/calendar-owner/);
    expect(connection.connectionConfig).toBeNull();
    expect(await connectors().getAccessToken('googlecalendar')).toBe(connection.accessToken);
    const byId = await connectors().getWorkspaceConnection(CONNECTOR_ID);
    expect(byId.accessToken).toBe(connection.accessToken);

    const listed = await api(server, `/api/apps/${APP}/admin/connectors`, {
      method: 'GET',
      token: SERVICE_TOKEN,
    });
    const calendar = (listed.json.connectors as Array<Record<string, unknown>>).find(
      (entry) => entry.type === 'googlecalendar',
    );
    expect(calendar).toMatchObject({ status: 'connected' });
    expect(JSON.stringify(listed.json)).not.toContain(connection.accessToken);
    // No token, code or verifier in the server's logs.
    expect(server.logs()).not.toContain(connection.accessToken);
  });

  test('tokens are for the service role only: anonymous 401, a user (an admin too) 403', async () => {
    const admin = await createUser(server, { email: uniqueEmail('connectors-admin'), role: 'admin' });
    const path = `/api/apps/${APP}/external-auth/tokens/googlecalendar`;
    expect((await api(server, path, { method: 'GET' })).status).toBe(401);
    expect((await api(server, path, { method: 'GET', token: admin.token })).status).toBe(403);
    expect(
      (await api(server, `/api/apps/${APP}/admin/connectors`, { method: 'GET', token: admin.token })).status,
    ).toBe(403);
  });

  test('an expiring token is refreshed before it is handed out, once for concurrent readers', async () => {
    provider.accessTokenTtlSeconds = 5; // inside the 60 s margin: every read refreshes
    try {
      await connectApp();
      provider.accessTokenTtlSeconds = 3600; // the refreshed token is fresh
      const before = provider.refreshes;
      const tokens = await Promise.all([
        connectors().getAccessToken('googlecalendar'),
        connectors().getAccessToken('googlecalendar'),
        connectors().getAccessToken('googlecalendar'),
      ]);
      expect(provider.refreshes).toBe(before + 1);
      expect(new Set(tokens).size).toBe(1);
      expect(await provider.userinfo(tokens[0] ?? '')).toMatch(/calendar-owner/);
    } finally {
      provider.accessTokenTtlSeconds = 3600;
    }
  });

  test('a hanging token endpoint is a 502 within 10 s and keeps the connection', async () => {
    provider.accessTokenTtlSeconds = 5;
    await connectApp();
    provider.accessTokenTtlSeconds = 3600;
    await setSecret('google_oauth_token_url', hangingUrl);
    try {
      const started = Date.now();
      const answer = await api(server, `/api/apps/${APP}/external-auth/tokens/googlecalendar`, {
        method: 'GET',
        token: SERVICE_TOKEN,
      });
      expect(answer.status).toBe(502);
      expect(answer.json.code).toBe('connector_provider_unavailable');
      expect(Date.now() - started).toBeLessThan(14_000);
    } finally {
      await deleteSecret('google_oauth_token_url');
    }
    // Kept: the next read refreshes at the real endpoint.
    expect(await provider.userinfo(await connectors().getAccessToken('googlecalendar'))).toMatch(
      /calendar-owner/,
    );
  });

  test('a refused refresh breaks the connection until it is connected again', async () => {
    provider.accessTokenTtlSeconds = 5;
    await connectApp();
    provider.refuseTokens = true;
    try {
      const refused = await api(server, `/api/apps/${APP}/external-auth/tokens/googlecalendar`, {
        method: 'GET',
        token: SERVICE_TOKEN,
      });
      expect(refused.status).toBe(409);
      expect(refused.json.code).toBe('connector_reauthorization_required');
      const listed = await api(server, `/api/apps/${APP}/admin/connectors`, {
        method: 'GET',
        token: SERVICE_TOKEN,
      });
      expect(JSON.stringify(listed.json)).toContain('"status":"broken"');
    } finally {
      provider.refuseTokens = false;
      provider.accessTokenTtlSeconds = 3600;
    }
    // Still broken without another call to the provider; connecting again mends it.
    const stillBroken = await api(server, `/api/apps/${APP}/external-auth/tokens/googlecalendar`, {
      method: 'GET',
      token: SERVICE_TOKEN,
    });
    expect(stillBroken.json.code).toBe('connector_reauthorization_required');
    expect((await connectApp()).status).toBe(200);
    expect(await connectors().getAccessToken('googlecalendar')).toBeTruthy();
  });

  test('a user connects their own calendar; only their on-behalf-of reads it, and they can disconnect it', async () => {
    const first = await createUser(server, { email: uniqueEmail('calendar-user') });
    const second = await createUser(server, { email: uniqueEmail('calendar-other') });
    const started = await userClient(server, first.token).connectors.connectAppUser(CONNECTOR_ID);
    expect(typeof started).toBe('string');
    const back = await grant(started as unknown as string, account(first.user.email));
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe(`${server.url}/`);

    const asFirst = serviceClient(server, SERVICE_TOKEN, first.token).asServiceRole.connectors;
    const own = await asFirst.getCurrentAppUserConnection(CONNECTOR_ID);
    expect(await provider.userinfo(own.accessToken)).toBe(first.user.email);
    const app = await connectors().getAccessToken('googlecalendar');
    expect(own.accessToken).not.toBe(app);

    const asSecond = serviceClient(server, SERVICE_TOKEN, second.token).asServiceRole.connectors;
    const none = await api(server, `/api/apps/${APP}/app-user-auth/connectors/googlecalendar/token`, {
      method: 'GET',
      token: SERVICE_TOKEN,
    });
    expect(none.status).toBe(401);
    expect(none.json.code).toBe('app_user_required');
    await expect(asSecond.getCurrentAppUserConnection('googlecalendar')).rejects.toMatchObject({
      status: 404,
    });

    await userClient(server, first.token).connectors.disconnectAppUser('googlecalendar');
    expect(await provider.userinfo(own.accessToken)).toBeNull(); // revoked at the provider
    await expect(asFirst.getCurrentAppUserConnection('googlecalendar')).rejects.toMatchObject({
      status: 404,
    });
  });

  test('from_url must be ours or CORS_ORIGINS; a refused consent comes back with connector_error', async () => {
    const user = await createUser(server, { email: uniqueEmail('calendar-from') });
    const initiate = (fromUrl: string) =>
      api(server, `/api/apps/${APP}/app-user-auth/connectors/googlecalendar/initiate`, {
        token: user.token,
        body: { from_url: fromUrl },
      });
    const foreign = await initiate('https://evil.example/steal');
    expect(foreign.status).toBe(400);
    expect(foreign.json.code).toBe('from_url_not_allowed');
    expect(
      (await api(server, `/api/apps/${APP}/app-user-auth/connectors/googlecalendar/initiate`)).status,
    ).toBe(401);

    const allowed = await initiate('https://front.example/settings?tab=2');
    expect(allowed.status).toBe(200);
    const cancelled = await grant(String(allowed.json.redirect_url), account(user.user.email), true);
    expect(cancelled.status).toBe(303);
    const target = new URL(cancelled.headers.get('location') ?? '');
    expect(`${target.origin}${target.pathname}`).toBe('https://front.example/settings');
    expect(target.searchParams.get('connector_error')).toBe('access_denied');
  });

  test('an unknown, reused or missing state is a 400 and changes nothing', async () => {
    const started = await api(server, `/api/apps/${APP}/admin/connectors/googlecalendar/connect`, {
      token: SERVICE_TOKEN,
    });
    const callback = await atProvider(
      provider,
      String(started.json.redirect_url),
      account(uniqueEmail('state')),
    );
    expect((await visit(new CookieJar(), callback)).status).toBe(200);
    const code = new URL(callback).searchParams.get('code') ?? '';
    expect(code.length).toBeGreaterThan(10);
    expect(server.logs()).not.toContain(code); // the request log redacts it
    const reused = await visit(new CookieJar(), callback);
    expect(reused.status).toBe(400);
    expect(await reused.text()).toContain('unknown, used or expired');
    const forged = new URL(callback);
    forged.searchParams.set('state', 'not-a-state');
    expect((await visit(new CookieJar(), forged.href)).status).toBe(400);
    const json = await api(server, '/api/external-auth/callback?code=x', { method: 'GET' });
    expect(json.status).toBe(400);
    expect(json.json.code).toBe('connector_state_invalid');
  });
});
