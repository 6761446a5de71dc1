import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** REPO_ROOT is the monorepo root, from which the built server is started. */
export const REPO_ROOT = resolve(import.meta.dirname, '../..');

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  /** logs returns everything the process has printed so far (stdout + stderr). */
  logs(): string;
  /** stop sends SIGTERM and resolves with the exit code once the process has exited. */
  stop(): Promise<number | null>;
}

export interface StartOptions {
  env?: Record<string, string>;
  /** dataDir reuses a folder (e.g. to restart on the same data); default a fresh temp folder. */
  dataDir?: string;
  /** keepData leaves the data folder in place after stop (default: removed if we created it). */
  keepData?: boolean;
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
 * startServer runs the built platform server (`server/dist/main.js`) as a real child process on a free
 * port and a temporary DATA_DIR, and resolves once `GET /healthz` answers 200.
 */
export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const port = await freePort();
  const ownsData = !options.dataDir;
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'queen-e2e-')));
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const child = spawn(process.execPath, ['server/dist/main.js'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
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

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`server exited with ${child.exitCode} before ready:\n${output}`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server not ready within 60 s:\n${output}`);
    }
    await new Promise((wait) => setTimeout(wait, 100));
  }

  return {
    url,
    port,
    dataDir,
    logs: () => output,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const code = await exited;
      if (ownsData && !options.keepData) await rm(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}
