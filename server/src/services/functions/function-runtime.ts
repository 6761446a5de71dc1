// The runtime of one app's functions: the sandbox folder of this run (generated wrappers, import map,
// sockets), each function's `npm:` packages cached once per run, and the pool of Deno processes, each
// started sandboxed with the app's secrets in its environment and its output tapped for the calls it serves.
// reload and restartAll stop every process, so each call from then on runs the current code and secrets.
import { chmod, chown, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createOutputTap, createRedactor, type OutputTap } from './call-output';
import { FunctionLoadError } from './function-errors';
import type { FunctionDef } from './function-discovery';
import { createFunctionPool, type Lease } from './function-pool';
import {
  FunctionStartError,
  startFunctionProcess,
  type FunctionOutput,
  type FunctionProcess,
} from './function-process';
import type { FunctionsServiceDeps } from './functions-types';
import { cachePackages, denoEnv } from './package-cache';
import { writeRuntimeFiles, SOCKET_ENV, type RuntimeFiles } from './runtime-files';
import { sandboxArgs } from './sandbox-flags';

/** START_TIMEOUT_MS bounds a process's start (an SDK function is ready in about 0.3 s). */
const START_TIMEOUT_MS = 20_000;
/** NOBODY is the uid/gid a function runs as when the server runs as root. */
const NOBODY = { uid: 65534, gid: 65534 };

/** FunctionRuntime is the functions of one app and the processes that run them. */
export interface FunctionRuntime {
  /** functions are the loaded functions by name (replaced by reload). */
  functions(): ReadonlyMap<string, FunctionDef>;
  /** acquire leases a process of the function name for one call, starting one when none is free. */
  acquire(name: string): Promise<Lease>;
  /** tapOf is the output tap of a process this runtime started (its output, shared out to its calls). */
  tapOf(process: FunctionProcess): OutputTap | undefined;
  /** reload takes a new set of functions: runtime files and package cache redone, every process stopped. */
  reload(next: ReadonlyMap<string, FunctionDef>): Promise<void>;
  /** restartAll stops every process; each starts again, with fresh secrets, on its next call. */
  restartAll(): void;
  /** processes is how many processes run now. */
  processes(): number;
  /** killAll ends every process at once (synchronous: safe in a process 'exit' handler). */
  killAll(): void;
  /** close ends every process and removes the sandbox folder. */
  close(): Promise<void>;
}

type RunAs = { uid: number; gid: number } | null;

/** Sandbox is the folder of this run's generated files and the folder of the processes' sockets. */
interface Sandbox {
  files: RuntimeFiles;
  socketDir: string;
}

/**
 * prepareSandbox writes the runtime files under the temp folder (a socket path has ~100 bytes, and the
 * child's user must read the wrappers) and opens the sockets folder and package cache to runAs.
 */
async function prepareSandbox(deps: FunctionsServiceDeps, runAs: RunAs): Promise<Sandbox> {
  const sandboxDir = await mkdtemp(join(tmpdir(), 'b44fn-'));
  await chmod(sandboxDir, 0o755);
  const files = await writeRuntimeFiles({
    dir: sandboxDir,
    codeDirs: deps.codeDirs,
    sdkVersion: deps.sdkVersion,
  });
  const socketDir = join(sandboxDir, 'sockets');
  await mkdir(socketDir, { mode: 0o700 });
  await mkdir(deps.denoDir, { recursive: true });
  if (runAs) {
    await chown(socketDir, runAs.uid, runAs.gid);
    // The child's user must reach the package cache inside DATA_DIR: traverse (not list) the folder.
    await chmod(dirname(deps.denoDir), 0o711).catch(() => undefined);
  }
  return { files, socketDir };
}

/** createFunctionRuntime prepares the sandbox (when Deno is usable and there is or may be a function). */
export async function createFunctionRuntime(deps: FunctionsServiceDeps): Promise<FunctionRuntime> {
  const { deno, log } = deps;
  const denoPath = deno.ok ? deno.runtime.path : '';
  let functions = deps.functions;
  const runAs = deps.runAs !== undefined ? deps.runAs : process.getuid?.() === 0 ? NOBODY : null;
  // Without it no process starts: every call is refused first (Deno unusable, or nothing to run).
  const sandbox = deno.ok && (functions.size > 0 || deps.watch) ? await prepareSandbox(deps, runAs) : null;
  const baseEnv = denoEnv(deps.denoDir);
  const cached = new Map<string, Promise<void>>();
  const taps = new WeakMap<FunctionProcess, OutputTap>();
  let sockets = 0;

  /** ensureCached fetches a function's `npm:` packages once per server run (the registry is asked only for new ones). */
  function ensureCached(def: FunctionDef, wrapper: string, files: RuntimeFiles): Promise<void> {
    let pending = cached.get(def.name);
    if (!pending) {
      pending = cachePackages({ denoPath, denoDir: deps.denoDir, importMap: files.importMap, wrapper }).then(
        (problem) => {
          // Not fatal: `--cached-only` then names what is missing when the process starts.
          if (problem)
            log.warn({ function: def.name, problem: problem.slice(0, 2000) }, 'function packages not cached');
        },
      );
      cached.set(def.name, pending);
    }
    return pending;
  }

  /** startProcess starts a sandboxed process of the function name (a FunctionLoadError when it cannot). */
  async function startProcess(name: string): Promise<FunctionProcess> {
    const def = functions.get(name);
    if (!def) throw new FunctionLoadError(`Function ${name} was removed`, '');
    const { files, socketDir } = sandbox as Sandbox;
    const wrapper = await files.wrapperFor(def.name, def.entry);
    await ensureCached(def, wrapper, files);
    const socketPath = join(socketDir, `${(sockets += 1)}.sock`);
    await rm(socketPath, { force: true });
    const secrets = await deps.secretsFor(deps.appId);
    // The process's output, redacted of the secrets it holds, to the server log and to the call it serves.
    const tap = createOutputTap(secrets);
    const output: FunctionOutput = (stream, raw) =>
      log.info({ function: name, stream, line: tap.line(stream, raw) }, 'function output');
    try {
      const started = await startFunctionProcess({
        denoPath,
        args: sandboxArgs({
          socketPath,
          importMap: files.importMap,
          apiHost: deps.apiHost,
          deniedPorts: deps.deniedPorts,
          memoryMb: deps.limits.memoryMb,
          entry: wrapper,
        }),
        // Secrets first: the runtime's own variables are not theirs to override.
        env: { ...secrets, ...baseEnv, [SOCKET_ENV]: socketPath },
        socketPath,
        startTimeoutMs: START_TIMEOUT_MS,
        user: runAs ?? undefined,
        output,
        outputCut: (stream, droppedBytes) =>
          log.warn({ function: name, stream, droppedBytes }, 'function output cut: a line was too long'),
        limits: { openFiles: deps.limits.openFiles, dataMb: deps.limits.processMemoryMb },
      });
      taps.set(started, tap);
      return started;
    } catch (error) {
      if (!(error instanceof FunctionStartError)) throw error;
      const detail = createRedactor(secrets)(error.detail);
      log.warn({ function: name, reason: error.message, detail }, 'function failed to start');
      // The reason and the process's last output: shown to the app's admins only (the error map).
      throw new FunctionLoadError(`Function ${name} failed to load`, `${error.message}\n${detail}`.trim());
    }
  }

  const pool = createFunctionPool(deps.limits, startProcess);

  return {
    functions: () => functions,
    acquire: (name) => pool.acquire(name),
    tapOf: (started) => taps.get(started),
    async reload(next) {
      functions = next;
      if (sandbox) {
        sandbox.files = await writeRuntimeFiles({
          dir: sandbox.files.dir,
          codeDirs: deps.codeDirs,
          sdkVersion: deps.sdkVersion,
        });
      }
      cached.clear();
      pool.stopAll();
    },
    restartAll: () => pool.stopAll(),
    processes: () => pool.size(),
    killAll: () => pool.close(),
    async close() {
      pool.close();
      if (sandbox) await rm(sandbox.files.dir, { recursive: true, force: true });
    },
  };
}
