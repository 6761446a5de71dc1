// Fetching functions' `npm:` packages into Deno's cache (`deno cache`): once per function per server run, or
// ahead of time with `npm run cli -- functions install`; the processes then run with `--cached-only`.
import { execFile } from 'node:child_process';
import { cacheArgs } from './sandbox-flags';

/** CACHE_TIMEOUT_MS bounds fetching one function's packages. */
const CACHE_TIMEOUT_MS = 180_000;

/** denoEnv is the environment of every Deno run: its cache, no colours or update checks, the machine's CAs. */
export function denoEnv(denoDir: string): Record<string, string> {
  return {
    DENO_DIR: denoDir,
    NO_COLOR: '1',
    DENO_NO_UPDATE_CHECK: '1',
    // The machine's own CAs too (a TLS-inspecting egress proxy, a private registry).
    DENO_TLS_CA_STORE: 'mozilla,system',
  };
}

/**
 * cachePackages runs `deno cache` on a function's wrapper: the registry is asked only for packages not yet in
 * denoDir. Resolves with the problem ('' when all is cached); never rejects.
 */
export function cachePackages(input: {
  denoPath: string;
  denoDir: string;
  importMap: string;
  wrapper: string;
}): Promise<string> {
  const env = { ...denoEnv(input.denoDir), PATH: process.env.PATH ?? '' };
  return new Promise<string>((resolve) => {
    execFile(
      input.denoPath,
      cacheArgs(input.importMap, input.wrapper),
      { env, timeout: CACHE_TIMEOUT_MS, maxBuffer: 1024 * 1024 },
      (error, _stdout, stderr) => resolve(error ? `${error.message}\n${stderr}`.trim() : ''),
    );
  });
}
