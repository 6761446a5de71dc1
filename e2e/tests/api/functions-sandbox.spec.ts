// The functions sandbox, measured from inside (e2e/fixtures/functions/base44/functions/probe): every escape a
// function might try is refused, and the one address it needs, this server's API, is reachable.
import { expect, test } from '../../support/test';
import { DEFAULT_APP_ID } from '../../support/sdk-client';
import { startServer, type RunningServer } from '../../support/server-process';
import { FUNCTIONS_ENV } from '../../support/functions-project';

let server: RunningServer;

test.beforeAll(async () => {
  server = await startServer({
    env: { ...FUNCTIONS_ENV, SECRETS_KEY: Buffer.alloc(32, 7).toString('base64') },
  });
});

test.afterAll(async () => {
  await server.stop();
});

test('reads, writes, processes, sys, ffi, loopback, private and database addresses are refused', async () => {
  const query = new URLSearchParams({
    dataDir: server.dataDir,
    port: String(server.port),
    file: `${server.dataDir}/secrets.json`,
  });
  const response = await fetch(`${server.url}/api/apps/${DEFAULT_APP_ID}/functions/probe?${query}`);
  expect(response.status).toBe(200);
  const results = (await response.json()) as Record<string, string>;
  for (const escape of [
    'readFile',
    'readDataDir',
    'importDataFile',
    'writeFile',
    'spawn',
    'sys',
    'ffi',
    'postgres',
    'redis',
    'postgresViaApiHost',
    'localhost',
    'ipv6Loopback',
    'private10',
  ]) {
    expect(results[escape], escape).toMatch(/^refused: /);
  }
  // The environment holds the runtime's own variables and the app's secrets, nothing of the server's.
  const names = (results.env ?? '').replace(/^allowed: /, '').split(',');
  for (const name of names) expect(name, 'an environment variable').toMatch(/^(DENO_|NO_COLOR$|PATH$)/);
  expect(results.api).toBe('allowed: 200');
});

test('without a usable Deno binary, start-up says so and calls answer 503', async () => {
  const without = await startServer({ env: { ...FUNCTIONS_ENV, DENO_PATH: '/nonexistent/deno' } });
  try {
    const response = await fetch(`${without.url}/api/apps/${DEFAULT_APP_ID}/functions/hello`, {
      method: 'POST',
    });
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ message: 'functions runtime unavailable' });
    expect(without.logs()).toContain('functions runtime unavailable: function calls answer 503');
  } finally {
    await without.stop();
  }
});
