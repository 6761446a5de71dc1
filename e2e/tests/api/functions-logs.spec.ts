// Function logs through a real server and real Deno processes: each call's status, duration and output
// (bounded, with the app's secrets and the call's tokens redacted) land in the app logs under the request id,
// and admins read them with the SDK's `appLogs.fetchLogs({type: 'function' | function: NAME})`; the
// operator's `npm run cli -- logs --function NAME [--follow]` prints them through the live server, or from
// the database once it has stopped.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../../support/test';
import { createUser, SERVICE_TOKEN, uniqueEmail, userClient } from '../../support/auth-helpers';
import { runCli } from '../../support/cli-process';
import { DEFAULT_APP_ID } from '../../support/sdk-client';
import { FUNCTIONS_ENV } from '../../support/functions-project';
import { REPO_ROOT, removeServerData, startServer, type RunningServer } from '../../support/server-process';

test.describe.configure({ mode: 'serial' });

const SECRET = `sk-log-${randomBytes(12).toString('hex')}`;
let server: RunningServer;
let dataDir: string;
// The CLI reads the server's own store (its PostgreSQL database if it has one), never the harness's DATABASE_URL.
const cliEnv = () => ({
  DATA_DIR: dataDir,
  SERVICE_TOKEN,
  APP_ID: DEFAULT_APP_ID,
  PROJECT_DIR: FUNCTIONS_ENV.PROJECT_DIR ?? '',
  DATABASE_URL: server.databaseUrl ?? '',
});
const fn = (name: string) => `${server.url}/api/apps/${DEFAULT_APP_ID}/functions/${name}`;

interface FunctionLog {
  type: string;
  function: string;
  request_id: string | null;
  trigger: string;
  status: number;
  duration_ms: number;
  output: { stream: string; line: string }[];
  output_dropped: number;
  created_date: string;
}

test.beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'queen-fnlogs-'));
  server = await startServer({ dataDir, keepData: true, env: { ...FUNCTIONS_ENV, APP_LOG_FLUSH_MS: '200' } });
  const set = await fetch(`${server.url}/api/apps/${DEFAULT_APP_ID}/admin/secrets/FN_LOG_SECRET`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${SERVICE_TOKEN}` },
    body: JSON.stringify({ value: SECRET }),
  });
  expect(set.status).toBe(200);
});

test.afterAll(async () => {
  await server.stop();
  await removeServerData({ dataDir, ...(server.databaseUrl ? { databaseUrl: server.databaseUrl } : {}) });
});

/** logsOf polls fetchLogs until a call with requestId is there (it is written a moment after the answer). */
async function logOf(token: string, requestId: string): Promise<FunctionLog> {
  const admin = userClient(server, token);
  let found: FunctionLog | undefined;
  await expect
    .poll(
      async () => {
        const page = (await admin.appLogs.fetchLogs({ function: 'chatty', request_id: requestId })) as {
          items: FunctionLog[];
        };
        found = page.items[0];
        return page.items.length;
      },
      { timeout: 10_000 },
    )
    .toBe(1);
  return found as FunctionLog;
}

test('a call is logged with its request id, status, duration and output; secrets and tokens are redacted', async () => {
  test.setTimeout(60_000);
  const admin = await createUser(server, { email: uniqueEmail('fnlog-admin'), role: 'admin' });
  const response = await fetch(fn('chatty'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.token}` },
    body: JSON.stringify({ secret: 'FN_LOG_SECRET', lines: 300 }),
  });
  expect(response.status).toBe(200);
  const requestId = response.headers.get('x-request-id') as string;
  // A per-process prefix and a counter (server/src/lib/request-id.ts): unique across restarts and instances.
  expect(requestId).toMatch(/^[\w-]{12}-[0-9a-z]+$/);

  const log = await logOf(admin.token, requestId);
  expect(log).toMatchObject({ type: 'function', function: 'chatty', trigger: 'http', status: 200 });
  expect(log.duration_ms).toBeGreaterThanOrEqual(0);
  const lines = log.output.map((item) => `${item.stream}: ${item.line}`);
  // Lines keep their order within a stream (stdout and stderr are two pipes: no order between them).
  expect(lines.filter((line) => line.startsWith('stdout')).slice(0, 3)).toEqual([
    'stdout: chatty says hello',
    'stdout: over two lines',
    'stdout: the secret is [redacted secret FN_LOG_SECRET] (twice: [redacted secret FN_LOG_SECRET])',
  ]);
  expect(lines).toContain('stderr: chatty warns');
  expect(lines).toContain('stdout: auth: Bearer [redacted token]');
  expect(lines).toContain('stdout: service: Bearer [redacted token]');
  // Bounded: 200 lines at most (16 KiB in all), the rest counted.
  expect(log.output.length).toBeLessThanOrEqual(200);
  expect(log.output_dropped).toBeGreaterThan(100);
  const everything = JSON.stringify(log) + server.logs();
  expect(everything).not.toContain(SECRET);
  expect(everything).not.toContain(admin.token);
});

test('failures are logged too, and only admins and the service role read function logs', async () => {
  const admin = await createUser(server, { email: uniqueEmail('fnlog-admin2'), role: 'admin' });
  const failed = await fetch(fn('chatty'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ fail: true }),
  });
  expect(failed.status).toBe(500);
  const log = await logOf(admin.token, failed.headers.get('x-request-id') as string);
  expect(log.status).toBe(500);
  expect(log.output.map((item) => item.line)).toContain('auth: null');

  const user = await createUser(server, { email: uniqueEmail('fnlog-user') });
  const refused = await fetch(`${server.url}/api/app-logs/${DEFAULT_APP_ID}?type=function`, {
    headers: { authorization: `Bearer ${user.token}` },
  });
  expect(refused.status).toBe(403);
  const asService = await fetch(`${server.url}/api/app-logs/${DEFAULT_APP_ID}?type=function&limit=1`, {
    headers: { authorization: `Bearer ${SERVICE_TOKEN}` },
  });
  expect(((await asService.json()) as { items: FunctionLog[] }).items).toHaveLength(1);
  // Page views are still what fetchLogs reads without a type.
  const pages = await fetch(`${server.url}/api/app-logs/${DEFAULT_APP_ID}`, {
    headers: { authorization: `Bearer ${SERVICE_TOKEN}` },
  });
  expect(((await pages.json()) as { items: { page: string }[] }).items.every((item) => 'page' in item)).toBe(
    true,
  );
});

test('a crash (502, with the uncaught error), a timeout (504) and an automation run are logged', async () => {
  test.setTimeout(60_000);
  const alice = await createUser(server, { email: uniqueEmail('fnlog-auto') });
  const crashed = await fetch(`${fn('crash')}?crash`, { method: 'POST', body: '{}' });
  expect(crashed.status).toBe(502);
  const slow = await fetch(fn('slow'), { method: 'POST', body: '{}' });
  expect(slow.status).toBe(504);
  const notes = userClient(server, alice.token).entities.Note as NonNullable<
    ReturnType<typeof userClient>['entities']['Note']
  >;
  await notes.create({ text: 'log me' });
  const read = async (name: string) =>
    (
      (await fetch(`${server.url}/api/app-logs/${DEFAULT_APP_ID}?function=${name}`, {
        headers: { authorization: `Bearer ${SERVICE_TOKEN}` },
      }).then((response) => response.json())) as { items: FunctionLog[] }
    ).items;
  await expect.poll(async () => (await read('crash'))[0]?.status, { timeout: 10_000 }).toBe(502);
  const crash = (await read('crash'))[0] as FunctionLog;
  expect(crash.request_id).toBe(crashed.headers.get('x-request-id'));
  expect(crash.output.map((item) => item.line).join('\n')).toContain('boom');
  await expect.poll(async () => (await read('slow'))[0]?.status, { timeout: 10_000 }).toBe(504);
  expect(((await read('slow'))[0] as FunctionLog).duration_ms).toBeGreaterThanOrEqual(2900);
  await expect
    .poll(async () => (await read('onNote'))[0], { timeout: 20_000 })
    .toMatchObject({ trigger: 'automation', request_id: null, status: 200 });
});

/** callChatty calls the chatty function anonymously and returns its request id. */
async function callChatty(): Promise<string> {
  const response = await fetch(fn('chatty'), { method: 'POST', body: '{}' });
  expect(response.status).toBe(200);
  return response.headers.get('x-request-id') as string;
}

test('npm run cli -- logs --function NAME prints calls through the live server; --follow prints new ones', async () => {
  test.setTimeout(60_000);
  const requestId = await callChatty();
  await expect
    .poll(async () => (await runCli(['logs', '--function', 'chatty'], cliEnv())).stdout, { timeout: 10_000 })
    .toContain(`chatty 200`);
  const printed = await runCli(['logs', '--function', 'chatty', '--limit', '50'], cliEnv());
  expect(printed.code).toBe(0);
  expect(printed.stdout).toMatch(new RegExp(`Z chatty 200 \\d+ ms \\(request ${requestId}\\)`));
  expect(printed.stdout).toContain('  out | chatty says hello');
  expect(printed.stdout).toContain('  err | chatty warns');
  expect(printed.stdout).toContain('[redacted secret FN_LOG_SECRET]');
  expect(printed.stdout).not.toContain(SECRET);
  const none = await runCli(['logs', '--function', 'nosuch'], cliEnv());
  expect(none).toMatchObject({ code: 0, stdout: '' });

  // --follow: a call made while it runs is printed within a few seconds; Ctrl-C (SIGINT) ends it.
  const follower = spawn(
    process.execPath,
    ['server/dist/cli.js', 'logs', '--function', 'chatty', '--follow'],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, LOG_LEVEL: 'warn', ...cliEnv() },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let followed = '';
  follower.stdout.on('data', (chunk: Buffer) => (followed += chunk.toString()));
  follower.stderr.on('data', (chunk: Buffer) => (followed += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => follower.once('exit', (code) => resolve(code)));
  await expect.poll(() => followed, { timeout: 10_000 }).toContain(requestId);
  const next = await callChatty();
  await expect.poll(() => followed, { timeout: 15_000 }).toContain(`(request ${next})`);
  // Each call once, though polls overlap.
  expect(followed.split(`(request ${next})`)).toHaveLength(2);
  follower.kill('SIGINT');
  await exited;
});

test('with no server running, npm run cli -- logs reads the database', async () => {
  const requestId = await callChatty();
  await server.stop();
  const printed = await runCli(['logs', '--function', 'chatty', '--limit', '100'], cliEnv());
  expect(printed.stderr).toBe('');
  expect(printed.code).toBe(0);
  // The call made just before SIGTERM was written by the clean stop.
  expect(printed.stdout).toContain(`(request ${requestId})`);
});
