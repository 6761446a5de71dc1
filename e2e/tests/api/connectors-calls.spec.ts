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
import { startOAuth2ServiceDouble, type OAuth2ServiceDouble } from '../../support/oauth2-service-double';
import { DEFAULT_APP_ID } from '../../support/sdk-client';
import { runCli, startCli } from '../../support/cli-process';
import { freePort, REPO_ROOT, startServer, type RunningServer } from '../../support/server-process';

// A generic OAuth 2 connector (`crm`: every endpoint an app secret, HTTP Basic at its token endpoint) and
// `callApi` through the outbound guard: what is forwarded and what is not, each outcome's phase, hosts and
// paths refused, one refresh and retry after a 401; and every token read from a Deno function.

const APP = DEFAULT_APP_ID;
const PROJECT = join(REPO_ROOT, 'e2e/fixtures/connectors/base44');

let server: RunningServer;
let crm: OAuth2ServiceDouble;
/** closedHost is trusted as a private host, but nothing listens there. */
let closedHost = '';

async function setSecret(name: string, value: string) {
  const result = await api(server, `/api/apps/${APP}/admin/secrets/${name}`, {
    method: 'PUT',
    token: SERVICE_TOKEN,
    body: { value },
  });
  expect(result.status).toBe(200);
}

/** follow opens a connect URL: the double grants at once and sends the browser to our callback. */
async function follow(redirectUrl: string): Promise<Response> {
  const atDouble = await fetch(redirectUrl, { redirect: 'manual' });
  const callback = atDouble.headers.get('location') ?? '';
  return fetch(callback, { redirect: 'manual', headers: { accept: 'text/html' } });
}

async function connectApp() {
  const started = await api(server, `/api/apps/${APP}/admin/connectors/crm/connect`, {
    token: SERVICE_TOKEN,
  });
  expect(started.status).toBe(200);
  expect((await follow(String(started.json.redirect_url))).status).toBe(200);
}

const callApi = (request: Record<string, unknown>) =>
  api(server, `/api/apps/${APP}/connectors/crm/call`, { token: SERVICE_TOKEN, body: request });

test.describe.serial('connector calls', () => {
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    crm = await startOAuth2ServiceDouble();
    closedHost = `127.0.0.1:${await freePort()}`;
    server = await startServer({
      database: 'pglite',
      env: {
        ...AUTH_ENV,
        APP_ID: APP,
        PROJECT_DIR: PROJECT,
        OUTBOUND_PRIVATE_HOSTS: `${crm.hostPort},${closedHost}`,
        CONNECTOR_CALL_TIMEOUT_S: '2',
      },
    });
    await setSecret('crm_oauth_client_id', crm.clientId);
    await setSecret('crm_oauth_client_secret', crm.clientSecret);
    await setSecret('crm_oauth_authorize_url', `${crm.origin}/authorize`);
    await setSecret('crm_oauth_token_url', `${crm.origin}/token`);
    await setSecret('crm_oauth_revoke_url', `${crm.origin}/revoke`);
    await setSecret('crm_oauth_api_base_url', crm.origin);
    await connectApp();
  });

  test.afterAll(async () => {
    await server?.stop();
    await crm?.close();
  });

  test('a generic connector keeps the token answer’s extra fields as connection_config', async () => {
    const connection = await serviceClient(server).asServiceRole.connectors.getConnection('crm');
    expect(connection.accessToken).toMatch(/^at-/);
    expect(connection.connectionConfig).toEqual({ instance_url: 'https://crm.example/instance-7' });
  });

  test('callApi forwards the path, query, body and safe headers, and sets the stored token', async () => {
    const answer = await serviceClient(server).asServiceRole.connectors.callApi('crm', {
      method: 'POST',
      path: '/api/echo?from=path',
      query: { page: 2, tag: ['a', 'b'] },
      headers: {
        'x-request-id': 'r-1',
        authorization: 'Bearer stolen',
        cookie: 'session=1',
        'x-forwarded-for': '10.0.0.1',
        'proxy-authorization': 'x',
      },
      body: { name: 'Ada' },
    });
    expect(answer).toMatchObject({ success: true, phase: 'responded', status: 201, creditsCharged: 0 });
    const echoed = answer.data as {
      query: string[][];
      headers: Record<string, string>;
      body: unknown;
    };
    expect(echoed.query).toEqual([
      ['from', 'path'],
      ['page', '2'],
      ['tag', 'a'],
      ['tag', 'b'],
    ]);
    expect(echoed.body).toEqual({ name: 'Ada' });
    expect(echoed.headers['x-request-id']).toBe('r-1');
    expect(echoed.headers.authorization).toMatch(/^Bearer at-/);
    expect(echoed.headers.cookie).toBeUndefined();
    expect(echoed.headers['x-forwarded-for']).toBeUndefined();
    expect(echoed.headers['proxy-authorization']).toBeUndefined();
    // Only the headers a caller needs come back.
    expect(answer.headers).toEqual({ 'x-ratelimit-remaining': '41' });
  });

  test('binary answers are base64 with their type; redirects are not followed', async () => {
    const binary = await callApi({ path: '/api/binary' });
    expect(binary.json).toMatchObject({
      success: true,
      data: null,
      data_base64: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).toString('base64'),
      content_type: 'image/png',
    });
    const redirect = await callApi({ path: '/api/redirect' });
    expect(redirect.json).toMatchObject({
      success: false,
      phase: 'responded',
      status_code: 302,
      headers: { location: 'https://elsewhere.example/x' },
    });
  });

  test('no answer in time is timed_out, a refused connection not_sent, over 5 MB sent_unconfirmed', async () => {
    const slow = await callApi({ path: '/api/slow' });
    expect(slow.status).toBe(200);
    expect(slow.json).toMatchObject({ success: false, phase: 'timed_out', status_code: null });
    const big = await callApi({ path: '/api/big' });
    expect(big.json).toMatchObject({ success: false, phase: 'sent_unconfirmed', status_code: null });

    // Nothing listens on the API base for a moment: the request never left.
    await setSecret('crm_oauth_api_base_url', `http://${closedHost}`);
    try {
      const refused = await callApi({ path: '/api/echo' });
      expect(refused.status).toBe(200);
      expect(refused.json).toMatchObject({ success: false, phase: 'not_sent', status_code: null });
      // A private address the operator did not trust: the outbound guard refuses before connecting.
      await setSecret('crm_oauth_api_base_url', 'http://127.0.0.1:9');
      const guarded = await callApi({ path: '/api/echo' });
      expect(guarded.status).toBe(400);
      expect(guarded.json.extra_data).toMatchObject({ reason: 'outbound_refused' });
    } finally {
      await setSecret('crm_oauth_api_base_url', crm.origin);
    }
  });

  test('foreign hosts and escaping paths are refused with 400', async () => {
    for (const request of [
      { host: 'evil.example', path: '/api/echo' },
      { path: '//evil.example/api/echo' },
      { path: 'https://evil.example/api/echo' },
      { path: '/api/../admin' },
      { path: '/api/%2e%2e/admin' },
      { path: '/api\\admin' },
      { method: 'TRACE', path: '/api/echo' },
    ]) {
      const refused = await callApi(request);
      expect(refused.status, JSON.stringify(request)).toBe(400);
    }
  });

  test('an upstream 401 gets one refresh and one retry; the rotated refresh token serves the next one', async () => {
    const before = crm.refreshes;
    for (const round of [1, 2]) {
      crm.forgetAccessTokens();
      const answer = await callApi({ path: '/api/echo' });
      expect(answer.json).toMatchObject({ success: true, status_code: 200 });
      expect(crm.refreshes).toBe(before + round);
    }
  });

  test('callApi is for the service role only', async () => {
    const user = await createUser(server, { email: uniqueEmail('crm-user') });
    expect((await api(server, `/api/apps/${APP}/connectors/crm/call`, { body: { path: '/x' } })).status).toBe(
      401,
    );
    expect(
      (await api(server, `/api/apps/${APP}/connectors/crm/call`, { token: user.token, body: { path: '/x' } }))
        .status,
    ).toBe(403);
  });

  test('a Deno function reads every connection it may, and calls the API', async () => {
    test.setTimeout(120_000);
    const user = await createUser(server, { email: uniqueEmail('crm-function') });
    const invoke = () => userClient(server, user.token).functions.invoke('connector-tokens', {});

    const before = (await invoke()).data as Record<
      string,
      { value?: unknown; status?: number; code?: string }
    >;
    expect(before.mine).toMatchObject({ status: 404, code: 'connector_not_connected' });

    const started = await userClient(server, user.token).connectors.connectAppUser('crm');
    const back = await follow(started as unknown as string);
    expect(back.status).toBe(303);

    const after = (await invoke()).data as Record<string, { value?: Record<string, unknown> }>;
    const app = after.connection?.value;
    expect(app?.accessToken).toMatch(/^at-/);
    expect(after.accessToken?.value).toBe(app?.accessToken);
    expect(after.workspace?.value?.accessToken).toBe(app?.accessToken);
    const mine = after.mine?.value;
    expect(mine?.accessToken).toMatch(/^at-/);
    expect(mine?.accessToken).not.toBe(app?.accessToken);
    expect(after.call?.value).toMatchObject({ success: true, phase: 'responded', status: 200 });
  });

  test('disconnecting revokes at the provider', async () => {
    const user = await createUser(server, { email: uniqueEmail('crm-revoke') });
    await follow(
      (await userClient(server, user.token).connectors.connectAppUser('crm')) as unknown as string,
    );
    const revokedBefore = crm.revoked.length;
    const removed = await api(server, `/api/apps/${APP}/app-user-auth/connectors/crm`, {
      method: 'DELETE',
      token: user.token,
    });
    expect(removed.json).toEqual({ success: true, revoked: true });
    expect(crm.revoked.length).toBe(revokedBefore + 1);
    expect(crm.revoked.at(-1)).toMatch(/^rt-/);
  });

  test('the CLI lists, connects (printing the address, waiting for the browser) and disconnects', async () => {
    const env = {
      DATA_DIR: server.dataDir,
      SERVICE_TOKEN,
      APP_ID: APP,
      PROJECT_DIR: PROJECT,
      DATABASE_URL: server.databaseUrl ?? '',
    };
    const listed = await runCli(['connectors', 'list'], env);
    expect(listed.code).toBe(0);
    const connectors = (JSON.parse(listed.stdout) as { connectors: Array<{ type: string; status: string }> })
      .connectors;
    expect(connectors.find((entry) => entry.type === 'crm')?.status).toBe('connected');
    expect(connectors.find((entry) => entry.type === 'slack')).toMatchObject({
      status: 'not_configured',
      missing_secrets: ['slack_oauth_client_id', 'slack_oauth_client_secret'],
    });

    const connecting = startCli(['connectors', 'connect', 'crm'], env);
    const address = await connecting.line(/^http/);
    expect(address).toContain(`${crm.origin}/authorize?`);
    expect(connecting.stdout()).not.toContain('connected'); // still waiting for the browser
    expect((await follow(address)).status).toBe(200);
    const connected = await connecting.done;
    expect(connected.code).toBe(0);
    expect(connected.stdout).toContain('"connected": "crm"');

    const disconnected = await runCli(['connectors', 'disconnect', 'crm'], env);
    expect(JSON.parse(disconnected.stdout)).toEqual({ success: true, revoked: true });
    // Both are the operator's changes: in the audit log, as the CLI's.
    const audit = await api(server, `/api/apps/${APP}/admin/audit-log?limit=2`, {
      method: 'GET',
      token: SERVICE_TOKEN,
    });
    expect(
      (audit.json.items as Array<Record<string, unknown>>).map((item) => [item.action, item.actor]),
    ).toEqual([
      ['connector.disconnect', { kind: 'service', via: 'cli' }],
      ['connector.connect', { kind: 'service', via: 'cli' }],
    ]);
    const unknown = await runCli(['connectors', 'connect', 'nosuch'], env);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('No connector "nosuch"');
  });
});
