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
  const { DATABASE_URL: _shared, ...inherited } = process.env;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['server/dist/cli.js', ...args], {
      cwd: REPO_ROOT,
      env: { ...inherited, LOG_LEVEL: 'warn', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}
