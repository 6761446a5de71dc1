import { spawn } from 'node:child_process';
import { REPO_ROOT } from './server-process';

/** CliResult is how the operator CLI ended and what it printed. */
export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * runCli runs the built CLI (`server/dist/cli.js`, what `npm run cli --` runs) with env, writing input to
 * its stdin (piped, so the CLI reads a secret value from it) and resolving with its exit code and output.
 * The harness's DATABASE_URL is not inherited (CI's names a shared database): pass the server's own.
 */
export function runCli(args: string[], env: Record<string, string>, input = ''): Promise<CliResult> {
  return startCli(args, env, input).done;
}

/** RunningCli is a CLI still running: its output so far, a wait for a line of it, and how it ends. */
export interface RunningCli {
  stdout(): string;
  /** line resolves with the first line of stdout that matches pattern (rejects if the CLI ends first). */
  line(pattern: RegExp): Promise<string>;
  done: Promise<CliResult>;
}

/** startCli starts the CLI as runCli does, for a command that prints while it waits (`connectors connect`). */
export function startCli(args: string[], env: Record<string, string>, input = ''): RunningCli {
  const { DATABASE_URL: _shared, ...inherited } = process.env;
  const child = spawn(process.execPath, ['server/dist/cli.js', ...args], {
    cwd: REPO_ROOT,
    env: { ...inherited, LOG_LEVEL: 'warn', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiting = new Set<() => void>();
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    for (const check of waiting) check();
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<CliResult>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
  child.stdin.end(input);
  return {
    stdout: () => stdout,
    done,
    line(pattern) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = stdout.split('\n').find((line) => pattern.test(line));
          if (found === undefined) return;
          waiting.delete(check);
          resolve(found);
        };
        waiting.add(check);
        check();
        void done.then(() => {
          if (waiting.delete(check)) reject(new Error(`the CLI ended without printing ${pattern}: ${stderr}`));
        });
      });
    },
  };
}
