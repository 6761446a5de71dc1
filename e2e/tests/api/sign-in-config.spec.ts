import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../../support/test';
import { api, AUTH_ENV, SERVICE_TOKEN } from '../../support/auth-helpers';
import { DEFAULT_APP_ID } from '../../support/sdk-client';
import { removeServerData, startServer } from '../../support/server-process';

// `base44/auth/config.jsonc` as the Base44 CLI writes it: a provider enabled without its credentials stops
// the start naming the app secrets it needs (lower-case, as the CLI names them); once they are set, the
// server starts and names the callback URL to register.

const KEY = randomBytes(32).toString('base64');
const SECRETS = [
  'google_oauth_client_id',
  'google_oauth_client_secret',
  'sso_client_id',
  'sso_client_secret',
  'sso_discovery_url',
];

test('an enabled provider without its app secrets stops the start; with them the callback URL is named', async () => {
  test.setTimeout(60_000);
  const root = await mkdtemp(join(tmpdir(), 'queen-sign-in-'));
  const project = join(root, 'app/base44');
  const emptyProject = join(root, 'empty/base44');
  await mkdir(join(project, 'auth'), { recursive: true });
  await mkdir(emptyProject, { recursive: true });
  await writeFile(
    join(project, 'auth/config.jsonc'),
    '{\n  // as `base44 auth` writes it\n  "enableUsernamePassword": true,\n  "enableGoogleLogin": true,\n  "enableSSOLogin": true,\n  "ssoProviderName": "okta",\n}\n',
  );
  const dataDir = join(root, 'data');
  const env = { ...AUTH_ENV, SECRETS_KEY: KEY, PROJECT_DIR: project, APP_ID: DEFAULT_APP_ID };
  try {
    const refused = await startServer({ dataDir, keepData: true, database: 'pglite', env }).then(
      () => 'started',
      (error: unknown) => String(error),
    );
    expect(refused).toMatch(/server exited with 1 before ready/);
    expect(refused).toContain('auth/config.jsonc enables sign-in providers without their credentials');
    expect(refused).toContain(
      'Google needs the app secrets google_oauth_client_id, google_oauth_client_secret',
    );
    expect(refused).toContain(
      'single sign-on (SSO) needs the app secrets sso_client_id, sso_client_secret, sso_discovery_url',
    );

    // Set through the operator API of a server on the same data without the auth file (what the CLI's
    // `secrets set` sends when a server runs; its lower-case names are checked in the CLI's own tests).
    const plain = await startServer({
      dataDir,
      keepData: true,
      database: 'pglite',
      env: { ...env, PROJECT_DIR: emptyProject },
    });
    for (const name of SECRETS) {
      const value =
        name === 'sso_discovery_url'
          ? 'https://idp.example/.well-known/openid-configuration'
          : `value-of-${name}`;
      const set = await api(plain, `/api/apps/${DEFAULT_APP_ID}/admin/secrets/${name}`, {
        method: 'PUT',
        token: SERVICE_TOKEN,
        body: { value },
      });
      expect(set.status, JSON.stringify(set.json)).toBe(200);
    }
    await plain.stop();

    const server = await startServer({
      dataDir,
      keepData: true,
      database: 'pglite',
      env: { ...env, PUBLIC_URL: 'https://app.example' },
    });
    expect(server.logs()).toContain('sign-in providers are enabled: register this callback URL with each');
    expect(server.logs()).toContain('https://app.example/api/apps/auth/callback');
    expect(server.logs()).not.toContain('value-of-');
    await server.stop();
  } finally {
    await removeServerData({ dataDir });
    await rm(root, { recursive: true, force: true });
  }
});
