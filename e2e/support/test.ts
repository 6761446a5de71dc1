// The `test` every spec imports: Playwright's, plus one server per worker for the spec files that share it.
//
// A spec file that only reads and writes data it creates itself, under unique names, on a server started with
// the default configuration of its kind, takes that server from a worker fixture instead of starting its
// own: the worker starts it the first time a file asks for it, and the files the worker runs after that use
// the same one (files run one at a time in a worker, never side by side). Files that count or list
// everything, check rate limits or start-up logs, restart a server, read its data folder's database, or
// start it with settings of their own keep starting their own (README.md, "Shared servers").
//
// Every spec imports `test` from here, not from '@playwright/test', even one that uses no shared server:
// Playwright gives a worker only files with the same set of worker fixtures, so a file on plain `test` would
// make the worker stop (and its shared server with it) and a new one start.
import { expect, test as base, type WorkerInfo } from '@playwright/test';
import { AUTH_ENV } from './auth-helpers';
import { startEntitiesServer } from './entities-helpers';
import { startServer, type DatabaseMode, type RunningServer, type StartOptions } from './server-process';

export { expect };

export interface SharedServers {
  /** sharedEntitiesServer is `startEntitiesServer()`: the fixture project, AUTH_ENV, regex budget out of the way. */
  sharedEntitiesServer: RunningServer;
  /** sharedServer is `startServer()`: nothing set. */
  sharedServer: RunningServer;
  /** sharedAuthServer is `startServer({ env: AUTH_ENV })`: the service token and high auth limits. */
  sharedAuthServer: RunningServer;
}

/**
 * runShared starts one kind of server on the worker's project's store (`metadata.database`; test.info() does
 * not exist in a worker fixture) and stops it when the worker ends. Each file that used it asserted a clean
 * exit when it stopped its own server; the worker asserts it once, when it stops the shared one.
 */
async function runShared(
  start: (options: StartOptions) => Promise<RunningServer>,
  use: (server: RunningServer) => Promise<void>,
  worker: WorkerInfo,
): Promise<void> {
  const database: DatabaseMode = worker.project.metadata?.database === 'postgres' ? 'postgres' : 'pglite';
  const server = await start({ database });
  await use(server);
  const code = await server.stop();
  expect(code, `the shared server's exit code; its last output:\n${server.logs().slice(-3000)}`).toBe(0);
}

const WORKER = { scope: 'worker', timeout: 120_000 } as const;

/* eslint-disable no-empty-pattern -- Playwright reads a fixture's dependencies from its first parameter's pattern */
export const test = base.extend<object, SharedServers>({
  sharedEntitiesServer: [async ({}, use, worker) => runShared(startEntitiesServer, use, worker), WORKER],
  sharedServer: [async ({}, use, worker) => runShared(startServer, use, worker), WORKER],
  sharedAuthServer: [
    async ({}, use, worker) =>
      runShared((options) => startServer({ ...options, env: AUTH_ENV }), use, worker),
    WORKER,
  ],
});
/* eslint-enable no-empty-pattern */

/**
 * forThisFile is a shared server as one spec file sees it: `logs()` holds only what it printed from now on
 * (so "no 500 was logged" means during this file), and stop and kill are refused (the worker stops it).
 * Call it in the file's beforeAll.
 */
export function forThisFile(server: RunningServer): RunningServer {
  const from = server.logs().length;
  const refuse = () =>
    Promise.reject(new Error('a shared server is stopped by its worker, not by a spec file'));
  return { ...server, logs: () => server.logs().slice(from), stop: refuse, kill: refuse };
}
