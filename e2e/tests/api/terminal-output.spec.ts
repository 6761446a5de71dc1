// `npm start` at a terminal (LOG_FORMAT=auto on a TTY, forced here with LOG_FORMAT=pretty): a short human
// summary instead of JSON lines, and no line per request. JSON lines stay the default elsewhere (every other
// spec reads them).
import { expect, test } from '../../support/test';
import { startServer, type RunningServer } from '../../support/server-process';

let server: RunningServer;

test.beforeAll(async () => {
  // LOG_LEVEL unset, as at a terminal (the harness sets info).
  server = await startServer({ env: { LOG_FORMAT: 'pretty', LOG_LEVEL: '' } });
});

test.afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

test('prints the addresses, modes, warnings and the first-admin command, then stays quiet per request', async () => {
  const output = server.logs();
  expect(output).toContain(' is running\n');
  for (const row of ['Site', 'Console', 'API', 'Database', 'Realtime', 'Mail', 'LLM']) {
    expect(output, row).toMatch(new RegExp(`^  ${row} +\\S`, 'm'));
  }
  expect(output).toContain(`${server.url}/_/`);
  expect(output).toContain('PGlite');
  // A fresh data folder has no admin: how to make one, with the CLI.
  expect(output).toContain('No admin yet');
  expect(output).toContain('create-user --email you@example.com');
  // PUBLIC_URL is unset here: the warning and what to do.
  expect(output).toMatch(/! PUBLIC_URL is not set.*\n +→ Set PUBLIC_URL/);
  expect(output).not.toMatch(/^\{"level"/m);

  const before = server.logs().length;
  for (const path of ['/healthz', '/api/apps/queen-solana/entities/Nope', '/'])
    await fetch(`${server.url}${path}`);
  await new Promise((settle) => setTimeout(settle, 200));
  const after = server.logs().slice(before);
  expect(after).not.toContain('incoming request');
  expect(after).not.toContain('request completed');
});
