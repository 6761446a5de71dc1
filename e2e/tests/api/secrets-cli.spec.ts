import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../../support/test';
import { api, AUTH_ENV, SERVICE_TOKEN } from '../../support/auth-helpers';
import { runCli } from '../../support/cli-process';
import { DEFAULT_APP_ID } from '../../support/sdk-client';
import { removeServerData, startServer, type RunningServer } from '../../support/server-process';

// `npm run cli -- secrets set NAME | list | delete NAME` against a real server process (through its admin
// API) and on the database itself (no server running), with the value only ever on stdin: never in an
// argument, the CLI's output, the server's logs or any answer.

const VALUE = `sk-live-${randomBytes(12).toString('hex')}`;
const KEY = randomBytes(32).toString('base64');
let server: RunningServer;
let dataDir: string;

/** filesHolding lists the files under dir whose bytes contain text. */
async function filesHolding(dir: string, text: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const found: string[] = [];
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    if ((await readFile(path)).includes(text)) found.push(path);
  }
  return found;
}

// On the api-postgres project the CLI opens the server's own PostgreSQL database.
let databaseUrl: string | undefined;
const cliEnv = () => ({
  DATA_DIR: dataDir,
  SERVICE_TOKEN,
  SECRETS_KEY: KEY,
  APP_ID: DEFAULT_APP_ID,
  DATABASE_URL: databaseUrl ?? '',
});
/** restart starts a server on the same data (folder and database) with env. */
const restart = (env: Record<string, string>) =>
  startServer({
    dataDir,
    keepData: true,
    ...(databaseUrl ? { databaseUrl } : {}),
    env: { ...AUTH_ENV, ...env },
  });

test.beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'queen-secrets-'));
  server = await startServer({ dataDir, keepData: true, env: { ...AUTH_ENV, SECRETS_KEY: KEY } });
  databaseUrl = server.databaseUrl;
});

test.afterAll(async () => {
  await server.stop();
  await removeServerData({ dataDir, databaseUrl });
});

test('set reads the value from stdin, list shows names only, delete removes it (through the live server)', async () => {
  const set = await runCli(['secrets', 'set', 'RESEND_API_KEY'], cliEnv(), `${VALUE}\n`);
  expect(set.stderr).toBe('');
  expect(set.code).toBe(0);
  expect(JSON.parse(set.stdout)).toMatchObject({
    name: 'RESEND_API_KEY',
    set: true,
    via: `server at ${server.url}`,
  });

  const listed = await runCli(['secrets', 'list'], cliEnv());
  expect(JSON.parse(listed.stdout)).toMatchObject({ names: ['RESEND_API_KEY'] });

  // The operator API gives names, never values.
  const names = await api(server, `/api/apps/${DEFAULT_APP_ID}/admin/secrets`, {
    method: 'GET',
    token: SERVICE_TOKEN,
  });
  // Names, and when each was set (the console's Secrets page), never a value.
  expect(names.json).toEqual({
    names: ['RESEND_API_KEY'],
    secrets: [{ name: 'RESEND_API_KEY', set_at: expect.any(String) }],
  });

  for (const output of [
    set.stdout,
    set.stderr,
    listed.stdout,
    listed.stderr,
    JSON.stringify(names.json),
    server.logs(),
  ]) {
    expect(output).not.toContain(VALUE);
  }
  // At rest the value is sealed: no file of the data folder (the embedded database included) holds it.
  expect(await filesHolding(dataDir, VALUE)).toEqual([]);

  const deleted = await runCli(['secrets', 'delete', 'RESEND_API_KEY'], cliEnv());
  expect(deleted.code).toBe(0);
  expect(JSON.parse(deleted.stdout)).toMatchObject({ name: 'RESEND_API_KEY', deleted: true });
  expect(JSON.parse((await runCli(['secrets', 'list'], cliEnv())).stdout)).toMatchObject({ names: [] });
  const again = await runCli(['secrets', 'delete', 'RESEND_API_KEY'], cliEnv());
  expect(again.code).toBe(1);
  expect(again.stderr).toContain('404: App queen-solana has no secret named RESEND_API_KEY');
});

test('names are checked, values never come from an argument, and only the service role reaches the API', async () => {
  const dashed = await runCli(['secrets', 'set', 'resend-key'], cliEnv(), 'x');
  expect(dashed.code).toBe(1);
  expect(dashed.stderr).toMatch(/Secret name "resend-key" is not valid/);
  const reserved = await runCli(['secrets', 'set', 'DENO_DIR'], cliEnv(), 'x');
  expect(reserved.stderr).toMatch(/reserved/);
  const asArgument = await runCli(['secrets', 'set', 'API_KEY', '--value', VALUE], cliEnv());
  expect(asArgument.code).toBe(1);
  expect(asArgument.stderr).toMatch(/Unknown option '--value'/);
  const empty = await runCli(['secrets', 'set', 'API_KEY'], cliEnv(), '');
  expect(empty.code).toBe(1);
  expect(empty.stderr).toMatch(/Secret API_KEY needs a value/);
  const anonymous = await api(server, `/api/apps/${DEFAULT_APP_ID}/admin/secrets/API_KEY`, {
    method: 'PUT',
    body: { value: 'x' },
  });
  expect(anonymous.status).toBe(401);
});

test('with no server running the CLI writes the database itself; a wrong key then stops the start and the CLI', async () => {
  await server.stop();
  const set = await runCli(['secrets', 'set', 'OFFLINE_TOKEN'], cliEnv(), VALUE);
  expect(set.code).toBe(0);
  expect(JSON.parse(set.stdout)).toMatchObject({ name: 'OFFLINE_TOKEN', set: true, via: 'database' });
  expect(set.stdout + set.stderr).not.toContain(VALUE);

  const wrongKey = randomBytes(32).toString('base64');
  const cli = await runCli(['secrets', 'set', 'OTHER'], { ...cliEnv(), SECRETS_KEY: wrongKey }, 'x');
  expect(cli.code).toBe(1);
  expect(cli.stderr).toMatch(
    /The secrets key \(SECRETS_KEY\) cannot decrypt the stored secret OFFLINE_TOKEN/,
  );

  const refused = await restart({ SECRETS_KEY: wrongKey }).then(
    () => 'started',
    (error: unknown) => String(error),
  );
  expect(refused).toMatch(/server exited with 1 before ready/);
  expect(refused).toMatch(/cannot decrypt the stored secret OFFLINE_TOKEN/);
  expect(refused).not.toContain(VALUE);

  const badKey = await restart({ SECRETS_KEY: 'too-short' }).then(
    () => 'started',
    (error: unknown) => String(error),
  );
  expect(badKey).toMatch(/SECRETS_KEY: must be 32 bytes/);

  // The right key starts, and the secret set offline is there.
  server = await restart({ SECRETS_KEY: KEY });
  const names = await api(server, `/api/apps/${DEFAULT_APP_ID}/admin/secrets`, {
    method: 'GET',
    token: SERVICE_TOKEN,
  });
  // Names, and when each was set (the console's Secrets page), never a value.
  expect(names.json).toEqual({
    names: ['OFFLINE_TOKEN'],
    secrets: [{ name: 'OFFLINE_TOKEN', set_at: expect.any(String) }],
  });
  expect(server.logs()).toMatch(/"stored":1.*app secrets/);
});

test('every change above is in the audit log, by the CLI through the server or on the database, never a value', async () => {
  // One more change by another caller of the admin API (not the CLI), and a user to refuse.
  const settings = await api(server, `/api/apps/${DEFAULT_APP_ID}/admin/settings`, {
    method: 'PUT',
    token: SERVICE_TOKEN,
    body: { self_signup: false },
  });
  expect(settings.status).toBe(200);
  const log = await api(server, `/api/apps/${DEFAULT_APP_ID}/admin/audit-log?limit=50`, {
    method: 'GET',
    token: SERVICE_TOKEN,
  });
  expect(log.status).toBe(200);
  const items = log.json.items as Array<Record<string, unknown>>;
  expect(items[0]).toMatchObject({
    action: 'app.settings',
    actor: { kind: 'service', via: 'api' },
    before: { self_signup: true },
    after: { self_signup: false },
  });
  const secretRows = items.filter((item) => String(item.target).startsWith('secret:'));
  expect(secretRows.map((item) => [item.action, item.target, item.actor])).toEqual([
    ['secret.set', 'secret:OFFLINE_TOKEN', { kind: 'cli' }],
    ['secret.delete', 'secret:RESEND_API_KEY', { kind: 'service', via: 'cli' }],
    ['secret.set', 'secret:RESEND_API_KEY', { kind: 'service', via: 'cli' }],
  ]);
  expect(JSON.stringify(log.json)).not.toContain(VALUE);
  // Newest first, paged by time: an entry older than the newest one is where the next page starts.
  const older = await api(
    server,
    `/api/apps/${DEFAULT_APP_ID}/admin/audit-log?limit=1&before=${encodeURIComponent(String(items[0]?.logged_at))}`,
    { method: 'GET', token: SERVICE_TOKEN },
  );
  expect((older.json.items as unknown[]).length).toBe(1);
  const bad = await api(server, `/api/apps/${DEFAULT_APP_ID}/admin/audit-log?before=yesterday`, {
    method: 'GET',
    token: SERVICE_TOKEN,
  });
  expect(bad.status).toBe(400);
  expect((await api(server, `/api/apps/${DEFAULT_APP_ID}/admin/audit-log`, { method: 'GET' })).status).toBe(
    401,
  );
});
