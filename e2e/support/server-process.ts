import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from '@playwright/test';
import { copyFolder } from './copy-folder';
import { createDatabase, dropDatabase } from './postgres';

/** REPO_ROOT is the monorepo root, from which the built server is started. */
export const REPO_ROOT = resolve(import.meta.dirname, '../..');

/** PGLITE_TEMPLATE_ENV names the migrated PGlite folder fresh PGlite servers start from (global-setup.ts). */
export const PGLITE_TEMPLATE_ENV = 'E2E_PGLITE_TEMPLATE';

/** DatabaseMode is the store a test server runs on: embedded PGlite or a PostgreSQL database. */
export type DatabaseMode = 'pglite' | 'postgres';

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  /** database is the store this server runs on. */
  database: DatabaseMode;
  /** databaseUrl is the PostgreSQL database's URL (postgres mode only). */
  databaseUrl?: string;
  /** pid is the server process's id (its own child processes have it as their parent). */
  pid: number;
  /** logs returns everything the process has printed so far (stdout + stderr). */
  logs(): string;
  /** stop sends SIGTERM and resolves with the exit code once the process has exited. */
  stop(): Promise<number | null>;
  /**
   * kill sends signal (e.g. SIGKILL to simulate a crash) and resolves with the exit code once the process
   * has exited (null when a signal ended it). Like stop, it removes data the harness created unless keepData.
   */
  kill(signal: NodeJS.Signals): Promise<number | null>;
}

export interface StartOptions {
  env?: Record<string, string>;
  /** dataDir reuses a folder (e.g. to restart on the same data); default a fresh temp folder. */
  dataDir?: string;
  /** keepData leaves the data folder (and database) in place after stop (default: removed if we created it). */
  keepData?: boolean;
  /** database picks the store; default from the Playwright project (`api-postgres` → postgres). */
  database?: DatabaseMode;
  /** databaseUrl reuses a PostgreSQL database (restart on the same data, or a second instance); implies postgres. */
  databaseUrl?: string;
}

/**
 * currentDatabaseMode is the store the running Playwright project tests (its `metadata.database`), or
 * PGlite outside a test.
 */
export function currentDatabaseMode(): DatabaseMode {
  try {
    return test.info().project.metadata.database === 'postgres' ? 'postgres' : 'pglite';
  } catch {
    return 'pglite';
  }
}

/** freePort asks the OS for an unused TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolvePort(port));
    });
  });
}

/**
 * removeServerData deletes what a server kept with keepData: its data folder and, in postgres mode, its
 * database.
 */
export async function removeServerData(
  server: Pick<RunningServer, 'dataDir' | 'databaseUrl'>,
): Promise<void> {
  await rm(server.dataDir, { recursive: true, force: true });
  if (server.databaseUrl) await dropDatabase(new URL(server.databaseUrl).pathname.slice(1));
}

/**
 * startServer runs the built platform server (`server/dist/main.js`) as a real child process on a free
 * port and a temporary DATA_DIR, and resolves once `GET /healthz` answers 200. In postgres mode it also
 * creates a fresh database for it (dropped on stop).
 */
export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  // freePort's port is free when asked, not when the server binds it: another process may take it between.
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startServerOnce(options);
    } catch (error) {
      if (!(error instanceof PortTakenError) || attempt === 3) throw error;
    }
  }
}

/** PortTakenError is a start that failed because another process bound the chosen port first. */
class PortTakenError extends Error {}

async function startServerOnce(options: StartOptions): Promise<RunningServer> {
  const port = await freePort();
  const ownsData = !options.dataDir;
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'queen-e2e-')));
  const database: DatabaseMode = options.databaseUrl
    ? 'postgres'
    : (options.database ?? currentDatabaseMode());
  const ownedDatabase = database === 'postgres' && !options.databaseUrl ? await createDatabase() : null;
  const template = process.env[PGLITE_TEMPLATE_ENV];
  if (database === 'pglite' && ownsData && template) {
    await copyFolder(template, join(dataDir, 'pglite'));
  }
  const databaseUrl = options.databaseUrl ?? ownedDatabase?.url;
  const url = `http://127.0.0.1:${port}`;

  // The run's own DATABASE_URL / REDIS_URL are for the harness: a server gets only what its mode and
  // options give it.
  const { DATABASE_URL: _database, REDIS_URL: _redis, ...inherited } = process.env;
  let output = '';
  const child = spawn(process.execPath, ['server/dist/main.js'], {
    cwd: REPO_ROOT,
    env: {
      ...inherited,
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      // One Redis serves every test run on the machine: servers of this run only hear each other.
      REDIS_PREFIX: `queen-test-${process.pid}`,
      // Functions' npm packages are fetched once for the whole run (and kept between runs), not per server.
      FUNCTIONS_DENO_DIR: join(REPO_ROOT, 'e2e/.cache/deno'),
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...options.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolveExit) => child.once('exit', (code) => resolveExit(code)));

  const cleanUp = async () => {
    if (options.keepData) return;
    if (ownsData) await rm(dataDir, { recursive: true, force: true });
    if (ownedDatabase) await dropDatabase(ownedDatabase.name);
  };

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      await cleanUp();
      const message = `server exited with ${child.exitCode} before ready:\n${output}`;
      throw output.includes(`EADDRINUSE: address already in use 127.0.0.1:${port}`)
        ? new PortTakenError(message)
        : new Error(message);
    }
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      await exited;
      await cleanUp();
      throw new Error(`server not ready within 60 s:\n${output}`);
    }
    await new Promise((wait) => setTimeout(wait, 25));
  }

  // /healthz answers as soon as the server listens; the start-up summary is logged just after. Give it a
  // moment so tests reading logs() see it (never fatal: a test may run a server that logs differently).
  const summaryBy = Date.now() + 2_000;
  // (JSON lines end with "app ready"; LOG_FORMAT=pretty prints a summary that starts "… is running".)
  const summarized = () => output.includes('"msg":"app ready"') || output.includes(' is running\n');
  while (!summarized() && Date.now() < summaryBy && child.exitCode === null) {
    await new Promise((wait) => setTimeout(wait, 20));
  }

  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    const code = await exited;
    await cleanUp();
    // A failed stop shows why: the server's last lines are the only record of its shutdown.
    if (signal === 'SIGTERM' && code !== 0) {
      console.error(
        `server exited with ${code} on SIGTERM; its last lines:\n${output.split('\n').slice(-30).join('\n')}`,
      );
    }
    return code;
  };
  return {
    url,
    port,
    dataDir,
    database,
    ...(databaseUrl ? { databaseUrl } : {}),
    pid: child.pid ?? 0,
    logs: () => output,
    stop: () => end('SIGTERM'),
    kill: (signal) => end(signal),
  };
}
