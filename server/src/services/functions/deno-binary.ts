// Where the Deno binary that runs backend functions comes from: the `deno` npm package's platform package
// (installed by `npm ci` as an optional dependency), not a separate install step. The server resolves the
// binary itself rather than through `deno`'s `bin.cjs`, which adds a Node process per call and relays
// signals poorly (docs/functions.md, "Processes").
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** DenoRuntime is a usable Deno binary and the version it reported. */
export interface DenoRuntime {
  path: string;
  version: string;
}

/** DenoProbe is a usable runtime, or why there is none (start-up says it; calls answer 503). */
export type DenoProbe = { ok: true; runtime: DenoRuntime } | { ok: false; problem: string };

/** platformPackage is the `@deno/*` package holding this machine's binary (none exists for musl). */
function platformPackage(): string | null {
  const arch = process.arch === 'x64' ? 'x64' : process.arch === 'arm64' ? 'arm64' : null;
  if (!arch) return null;
  if (process.platform === 'linux') {
    // glibc reports its version in the process report; musl (Alpine) does not, and has no build.
    const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)
      ?.header;
    return header?.glibcVersionRuntime ? `@deno/linux-${arch}-glibc` : null;
  }
  if (process.platform === 'darwin') return `@deno/darwin-${arch}`;
  if (process.platform === 'win32') return `@deno/win32-${arch}`;
  return null;
}

/** candidatePaths lists where a binary may be, best first: DENO_PATH, the platform package, `deno`'s copy. */
export function candidatePaths(denoPath: string | undefined, from: string = import.meta.url): string[] {
  if (denoPath) return [denoPath];
  const require = createRequire(from);
  const found: string[] = [];
  const exe = process.platform === 'win32' ? 'deno.exe' : 'deno';
  const pkg = platformPackage();
  for (const name of [pkg, 'deno'].filter((item): item is string => item !== null)) {
    try {
      found.push(join(dirname(require.resolve(`${name}/package.json`)), exe));
    } catch {
      // Not installed (an optional dependency on a platform without a build).
    }
  }
  return found;
}

/** probeDeno finds the first candidate that runs and reports a version. */
export async function probeDeno(denoPath: string | undefined): Promise<DenoProbe> {
  const candidates = candidatePaths(denoPath);
  if (candidates.length === 0) {
    return {
      ok: false,
      problem: 'no Deno binary for this platform (the `deno` npm package has none for musl)',
    };
  }
  const problems: string[] = [];
  for (const path of candidates) {
    try {
      const { stdout } = await run(path, ['--version'], { timeout: 10_000, env: { NO_COLOR: '1' } });
      const version = /^deno (\S+)/.exec(stdout)?.[1];
      if (version) return { ok: true, runtime: { path, version } };
      problems.push(`${path}: unexpected --version output`);
    } catch (error) {
      problems.push(`${path}: ${(error as Error).message.split('\n')[0]}`);
    }
  }
  return { ok: false, problem: problems.join('; ') };
}
