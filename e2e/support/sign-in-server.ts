import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api, AUTH_ENV, SERVICE_TOKEN } from './auth-helpers';
import { runCli } from './cli-process';
import { copyFolder } from './copy-folder';
import { startOidcProvider, type TestProvider } from './oidc-provider';
import { DEFAULT_APP_ID } from './sdk-client';
import {
  freePort,
  PGLITE_TEMPLATE_ENV,
  removeServerData,
  startServer,
  type RunningServer,
} from './server-process';

// A server whose app enables Google and SSO, both pointed at an in-process oidc-provider: the secrets the
// start requires are set with the CLI before it starts (the provider's port is chosen first), the provider is
// started once our callback URL is known.

/** CLIENT_SECRET is the test client's secret at the provider. */
const CLIENT_SECRET = 'queen-test-client-secret-0123456789';

/** SignInSetup is the running server and provider, and how to change app secrets and stop both. */
export interface SignInSetup {
  server: RunningServer;
  provider: TestProvider;
  setSecret(name: string, value: string): Promise<void>;
  deleteSecret(name: string): Promise<void>;
  stop(): Promise<void>;
}

/** SignInOptions add to the app's auth config and to the secrets set before the start (other providers). */
export interface SignInOptions {
  /** authConfig is merged into `auth/config.jsonc` (e.g. `{ enableGithubLogin: true }`). */
  authConfig?: Record<string, unknown>;
  /** secrets are set with the CLI too; given the oidc-provider's issuer (its port is chosen first). */
  secrets?: (issuer: string) => Record<string, string> | Promise<Record<string, string>>;
  /** appName is the project's name (its `config.jsonc`), shown on a hosted app's sign-in page. */
  appName?: string;
}

/**
 * startSignInServer starts the provider and a server with env added (e.g. a short state TTL, or SITE_DIST
 * to host a fixture app's build).
 */
export async function startSignInServer(
  env: Record<string, string> = {},
  options: SignInOptions = {},
): Promise<SignInSetup> {
  const root = await mkdtemp(join(tmpdir(), 'queen-provider-sign-in-'));
  const project = join(root, 'base44');
  await mkdir(join(project, 'auth'), { recursive: true });
  if (options.appName) {
    await writeFile(join(project, 'config.jsonc'), `${JSON.stringify({ name: options.appName })}\n`);
  }
  await writeFile(
    join(project, 'auth/config.jsonc'),
    '{ "enableGoogleLogin": true, "googleOAuthClientId": "queen-test-client", "enableSSOLogin": true, "ssoProviderName": "custom" }\n',
  );
  if (options.authConfig) {
    const base = {
      enableGoogleLogin: true,
      googleOAuthClientId: 'queen-test-client',
      enableSSOLogin: true,
      ssoProviderName: 'custom',
    };
    await writeFile(
      join(project, 'auth/config.jsonc'),
      `${JSON.stringify({ ...base, ...options.authConfig })}\n`,
    );
  }
  const dataDir = join(root, 'data');
  const key = randomBytes(32).toString('base64');
  const providerPort = await freePort();
  const issuer = `http://127.0.0.1:${providerPort}`;
  const cliEnv = {
    DATA_DIR: dataDir,
    SERVICE_TOKEN,
    SECRETS_KEY: key,
    APP_ID: DEFAULT_APP_ID,
    PROJECT_DIR: project,
  };
  const secrets: Record<string, string> = {
    google_oauth_client_secret: CLIENT_SECRET,
    sso_client_id: 'queen-test-client',
    sso_client_secret: CLIENT_SECRET,
    sso_discovery_url: `${issuer}/.well-known/openid-configuration`,
  };
  Object.assign(secrets, await options.secrets?.(issuer));
  // The migrated PGlite folder (global-setup.ts): the first CLI run then skips initdb and the migrations.
  const template = process.env[PGLITE_TEMPLATE_ENV];
  if (template) await copyFolder(template, join(dataDir, 'pglite'));
  for (const [name, value] of Object.entries(secrets)) {
    const set = await runCli(['secrets', 'set', name], cliEnv, value);
    if (set.code !== 0) throw new Error(`secrets set ${name}: ${set.stderr}`);
  }
  const server = await startServer({
    dataDir,
    keepData: true,
    database: 'pglite',
    env: { ...AUTH_ENV, SECRETS_KEY: key, PROJECT_DIR: project, APP_ID: DEFAULT_APP_ID, ...env },
  });
  const provider = await startOidcProvider(`${server.url}/api/apps/auth/callback`, providerPort);
  const secretPath = (name: string) => `/api/apps/${DEFAULT_APP_ID}/admin/secrets/${name}`;
  return {
    server,
    provider,
    async setSecret(name, value) {
      const result = await api(server, secretPath(name), {
        method: 'PUT',
        token: SERVICE_TOKEN,
        body: { value },
      });
      if (result.status !== 200)
        throw new Error(`set ${name}: ${result.status} ${JSON.stringify(result.json)}`);
    },
    async deleteSecret(name) {
      const result = await api(server, secretPath(name), { method: 'DELETE', token: SERVICE_TOKEN });
      if (result.status !== 200) throw new Error(`delete ${name}: ${result.status}`);
    },
    async stop() {
      await provider.close();
      await server.stop();
      await removeServerData({ dataDir, databaseUrl: server.databaseUrl });
      await rm(root, { recursive: true, force: true });
    },
  };
}
