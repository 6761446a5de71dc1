// Backend functions: finds the function a path names, runs it in its sandboxed Deno process (pool), and
// passes one call through with the headers `createClientFromRequest` expects
// (docs/protocol-notes.md, "Functions"): the app id, the API address the sandbox may reach, a freshly
// minted short-lived service token, and the caller's own Authorization. Headers a visitor sent under those
// names are dropped first. Each call has a deadline; past it the process is killed.
import { chmod, chown, mkdir, mkdtemp, rm } from 'node:fs/promises';
import {
  request as httpRequest,
  type ClientRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
} from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { InvalidInputError } from '../../lib/errors';
import type { DenoProbe } from './deno-binary';
import { createOutputTap, createRedactor, type OutputLine, type OutputTap } from './call-output';
import {
  FunctionCrashError,
  FunctionLoadError,
  FunctionsBusyError,
  FunctionsUnavailableError,
  FunctionTimeoutError,
} from './function-errors';
import { findFunction, type FunctionDef } from './function-discovery';
import { createFunctionPool, type PoolLimits } from './function-pool';
import {
  FunctionStartError,
  startFunctionProcess,
  type FunctionOutput,
  type FunctionProcess,
} from './function-process';
import { writeRuntimeFiles, SOCKET_ENV, type RuntimeFiles } from './runtime-files';
import { cachePackages, denoEnv } from './package-cache';
import { sandboxArgs } from './sandbox-flags';

/** STRIPPED_HEADERS are never passed from the caller: the platform's own, and hop-by-hop ones. */
const STRIPPED_HEADERS = new Set([
  'x-data-env',
  'x-app-id',
  'host',
  'connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'upgrade',
  'transfer-encoding',
]);
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'trailer', 'te']);
/** START_TIMEOUT_MS bounds a process's start (an SDK function is ready in about 0.3 s). */
const START_TIMEOUT_MS = 20_000;
/** CRASH_GRACE_MS is how long a process whose connection broke may take to end (and say why) before SIGKILL. */
const CRASH_GRACE_MS = 250;
/** NOBODY is the uid/gid a function runs as when the server runs as root. */
const NOBODY = { uid: 65534, gid: 65534 };

/** FunctionCall is one call, as the route hands it over: no request object, only its parts. */
export interface FunctionCall {
  method: string;
  /** path is what the function sees after its host: `/` plus the rest of the URL path and the query. */
  path: string;
  headers: IncomingHttpHeaders;
  body: Readable | null;
  /** requestId ties the call's log line to the HTTP request's (absent for automations). */
  requestId?: string;
  /** trigger says who called: an HTTP request (default) or an automation. */
  trigger?: 'http' | 'automation';
}

/** FunctionCallRecord is one call as the app logs keep it (output redacted and bounded). */
export interface FunctionCallRecord {
  function: string;
  requestId: string | null;
  trigger: 'http' | 'automation';
  /** status is the function's HTTP status, or the platform's (502 crash or load failure, 504 timeout, 503). */
  status: number;
  durationMs: number;
  output: OutputLine[];
  /** outputDropped counts lines past the per-call bounds (CALL_OUTPUT_LIMITS). */
  outputDropped: number;
  /** at is when the call ended (ISO 8601). */
  at: string;
}

/** FunctionAnswer is the function's response, its body still streaming. */
export interface FunctionAnswer {
  status: number;
  headers: Record<string, string | string[]>;
  body: Readable;
}

export interface FunctionsLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/** FunctionsServiceDeps is what the service is built from (platform.ts). */
export interface FunctionsServiceDeps {
  appId: string;
  functions: ReadonlyMap<string, FunctionDef>;
  deno: DenoProbe;
  /** denoDir is Deno's package cache (generated files go to a temp folder of this run). */
  denoDir: string;
  /** codeDirs are scanned for SDK versions (functions and `shared/`). */
  codeDirs: string[];
  sdkVersion: string;
  /** apiUrl is this server's API as functions reach it (`http://<FUNCTIONS_API_HOST>:<port>`), set once listening. */
  apiUrl: () => string;
  apiHost: string;
  deniedPorts: number[];
  limits: PoolLimits & { timeoutMs: number; memoryMb: number; processMemoryMb: number; openFiles: number };
  secretsFor: (appId: string) => Promise<Record<string, string>>;
  /** mintCallToken mints a call's own service-role token, valid until end() (the call ended) at the latest. */
  mintCallToken: (appId: string, seconds: number) => Promise<{ token: string; end(): void }>;
  log: FunctionsLog;
  /** recordCall receives every call once it ended (the app logs; must not block). */
  recordCall?: (record: FunctionCallRecord) => void;
  /** watch prepares the runtime even with no function yet (FUNCTIONS_WATCH: functions may be added). */
  watch?: boolean;
  /** runAs overrides the child's user (default: nobody when the server runs as root). */
  runAs?: { uid: number; gid: number } | null;
}

/** callHeaders is what the function receives: the caller's headers minus the platform's, plus the platform's. */
export function callHeaders(
  incoming: IncomingHttpHeaders,
  platform: { appId: string; apiUrl: string; serviceToken: string },
): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(incoming)) {
    const lower = name.toLowerCase();
    if (value === undefined || STRIPPED_HEADERS.has(lower) || lower.startsWith('base44-')) continue;
    headers[lower] = value;
  }
  headers['base44-app-id'] = platform.appId;
  headers['base44-api-url'] = platform.apiUrl;
  headers['base44-service-authorization'] = `Bearer ${platform.serviceToken}`;
  const version = incoming['base44-functions-version'];
  if (typeof version === 'string' && version.length <= 200) headers['base44-functions-version'] = version;
  return headers;
}

function answerHeaders(response: IncomingMessage): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
  }
  return headers;
}

/** createFunctionsService returns the functions of one app; see the file comment. */
export async function createFunctionsService(deps: FunctionsServiceDeps) {
  const { deno, log } = deps;
  let functions = deps.functions;
  const runAs = deps.runAs !== undefined ? deps.runAs : process.getuid?.() === 0 ? NOBODY : null;
  let files: RuntimeFiles | null = null;
  let socketDir = '';
  if (deno.ok && (functions.size > 0 || deps.watch)) {
    // Under the temp folder: a socket path has ~100 bytes, and the child's user must read the wrappers.
    const sandboxDir = await mkdtemp(join(tmpdir(), 'b44fn-'));
    await chmod(sandboxDir, 0o755);
    files = await writeRuntimeFiles({
      dir: sandboxDir,
      codeDirs: deps.codeDirs,
      sdkVersion: deps.sdkVersion,
    });
    socketDir = join(sandboxDir, 'sockets');
    await mkdir(socketDir, { mode: 0o700 });
    await mkdir(deps.denoDir, { recursive: true });
    if (runAs) {
      await chown(socketDir, runAs.uid, runAs.gid);
      // The child's user must reach the package cache inside DATA_DIR: traverse (not list) the folder.
      await chmod(dirname(deps.denoDir), 0o711).catch(() => undefined);
    }
  }
  const baseEnv = denoEnv(deps.denoDir);
  const cached = new Map<string, Promise<void>>();
  const taps = new WeakMap<FunctionProcess, OutputTap>();
  /** collecting are calls still in their output grace period (settled on close, then recorded). */
  const collecting = new Set<Promise<void>>();
  let sockets = 0;

  /** ensureCached fetches a function's `npm:` packages once per server run (the registry is asked only for new ones). */
  function ensureCached(def: FunctionDef, wrapper: string): Promise<void> {
    let pending = cached.get(def.name);
    if (!pending) {
      pending = cachePackages({
        denoPath: deno.ok ? deno.runtime.path : '',
        denoDir: deps.denoDir,
        importMap: (files as RuntimeFiles).importMap,
        wrapper,
      }).then((problem) => {
        // Not fatal: `--cached-only` then names what is missing when the process starts.
        if (problem)
          log.warn({ function: def.name, problem: problem.slice(0, 2000) }, 'function packages not cached');
      });
      cached.set(def.name, pending);
    }
    return pending;
  }

  const pool = createFunctionPool(deps.limits, async (name) => {
    const def = functions.get(name);
    if (!def) throw new FunctionLoadError(`Function ${name} was removed`, '');
    const runtime = files as RuntimeFiles;
    const wrapper = await runtime.wrapperFor(def.name, def.entry);
    await ensureCached(def, wrapper);
    const socketPath = join(socketDir, `${(sockets += 1)}.sock`);
    await rm(socketPath, { force: true });
    const secrets = await deps.secretsFor(deps.appId);
    // The process's output, redacted of the secrets it holds, to the server log and to the call it serves.
    const tap = createOutputTap(secrets);
    const output: FunctionOutput = (stream, raw) =>
      log.info({ function: name, stream, line: tap.line(stream, raw) }, 'function output');
    try {
      const started = await startFunctionProcess({
        denoPath: deno.ok ? deno.runtime.path : '',
        args: sandboxArgs({
          socketPath,
          importMap: runtime.importMap,
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
  });

  /** record hands one ended call to the app logs. */
  function record(
    def: FunctionDef,
    call: FunctionCall,
    status: number,
    durationMs: number,
    output: { lines: OutputLine[]; dropped: number },
  ): void {
    deps.recordCall?.({
      function: def.name,
      requestId: call.requestId ?? null,
      trigger: call.trigger ?? 'http',
      status,
      durationMs,
      output: output.lines,
      outputDropped: output.dropped,
      at: new Date().toISOString(),
    });
  }

  /** statusOf is the status a platform error answers with (routes/error-map.ts says the same). */
  function statusOf(error: unknown): number {
    if (error instanceof InvalidInputError) return 400;
    if (error instanceof FunctionTimeoutError) return 504;
    if (error instanceof FunctionsUnavailableError || error instanceof FunctionsBusyError) return 503;
    return 502;
  }

  async function invoke(def: FunctionDef, call: FunctionCall): Promise<FunctionAnswer> {
    const started = Date.now();
    if (!deno.ok) {
      record(def, call, 503, 0, { lines: [], dropped: 0 });
      throw new FunctionsUnavailableError('functions runtime unavailable');
    }
    const timeoutSeconds = Math.ceil(deps.limits.timeoutMs / 1000);
    let lease: Awaited<ReturnType<typeof pool.acquire>>;
    try {
      lease = await pool.acquire(def.name);
    } catch (error) {
      // A load failure's compiler output (already redacted) is the call's output.
      const detail = error instanceof FunctionLoadError ? error.detail : '';
      const lines = detail
        .split('\n')
        .filter((line) => line.length > 0)
        .slice(0, 200)
        .map((line): OutputLine => ({ stream: 'stderr', line: line.slice(0, 2000) }));
      record(def, call, statusOf(error), Date.now() - started, { lines, dropped: 0 });
      throw error;
    }
    let callToken: { token: string; end(): void } | null = null;
    let headers: ReturnType<typeof callHeaders>;
    try {
      callToken = await deps.mintCallToken(deps.appId, timeoutSeconds + 60);
      headers = callHeaders(call.headers, {
        appId: deps.appId,
        apiUrl: deps.apiUrl(),
        serviceToken: callToken.token,
      });
    } catch (error) {
      callToken?.end();
      lease.release();
      throw error;
    }
    const serviceToken = callToken.token;
    const bearer = /^Bearer\s+(\S+)$/i.exec(String(call.headers.authorization ?? ''))?.[1];
    const tap = taps.get(lease.process);
    const output = tap?.begin(bearer ? [serviceToken, bearer] : [serviceToken]);
    /** finish records the call once its output is complete (off the request path). */
    const finish = (status: number) => {
      const durationMs = Date.now() - started;
      if (!tap || !output) return record(def, call, status, durationMs, { lines: [], dropped: 0 });
      const pending = tap.end(output).then((collected) => record(def, call, status, durationMs, collected));
      collecting.add(pending);
      void pending.finally(() => collecting.delete(pending));
    };
    return new Promise<FunctionAnswer>((resolve, reject) => {
      let settled = false;
      // Set once the request exists; fail() may run before that (a request node:http refuses).
      let timer: NodeJS.Timeout | undefined = undefined;
      const done = () => {
        clearTimeout(timer);
        // The call's token ends with it: printed or answered by the function, it opens nothing afterwards.
        callToken.end();
        lease.release();
      };
      const fail = (error: Error) => {
        if (settled) return;
        settled = true;
        done();
        finish(statusOf(error));
        reject(error);
      };
      let outgoing: ClientRequest;
      try {
        outgoing = httpRequest(
          {
            socketPath: lease.process.socketPath,
            agent: lease.process.agent,
            method: call.method,
            path: call.path,
            headers,
          },
          (response) => {
            if (settled) return response.destroy();
            settled = true;
            response.once('close', () => {
              done();
              finish(response.statusCode ?? 502);
              log.info(
                {
                  function: def.name,
                  status: response.statusCode,
                  ms: Date.now() - started,
                  reqId: call.requestId,
                },
                'function call',
              );
            });
            resolve({ status: response.statusCode ?? 502, headers: answerHeaders(response), body: response });
          },
        );
      } catch (error) {
        // A path or header node:http refuses: the caller's input, refused before anything was sent.
        fail(new InvalidInputError(`The function call could not be sent: ${(error as Error).message}`));
        return;
      }
      timer = setTimeout(() => {
        log.warn(
          { function: def.name, timeoutMs: deps.limits.timeoutMs },
          'function timed out: its process is retired',
        );
        // This call ends now; the process takes no new call and is killed once the calls on it end (at
        // once when this was its only one), so a caller's timeout never cuts off another caller's call.
        lease.retire();
        outgoing.destroy();
        fail(new FunctionTimeoutError(`Function ${def.name} did not answer within ${timeoutSeconds} s`));
      }, deps.limits.timeoutMs);
      let bodyError: Error | null = null;
      outgoing.once('error', () => {
        // Settled already: this call timed out (its request was destroyed above), nothing more to do.
        if (settled) return;
        // A body that broke (the caller went away, or it grew past the limit: 413) says nothing about the
        // process, which stays; any other break leaves it suspect, and the next call starts afresh.
        if (bodyError) return fail(bodyError);
        // Out of service now; a moment to print its uncaught error (the call's output) before SIGKILL.
        lease.process.retire(CRASH_GRACE_MS);
        void lease.process.exited.then((why) =>
          log.warn({ function: def.name, why }, 'function process ended'),
        );
        fail(new FunctionCrashError(`Function ${def.name} crashed`));
      });
      if (call.body) {
        call.body.once('error', (error) => {
          bodyError = error;
          outgoing.destroy(error);
        });
        call.body.pipe(outgoing);
      } else outgoing.end();
    });
  }

  /**
   * invokeJson calls name with a JSON body as the service role (automations): no user, the call's minted
   * service token only. Never throws: the outcome and, on failure, a short detail for the log and retries.
   */
  async function invokeJson(
    name: string,
    body: unknown,
  ): Promise<{ ok: boolean; status: number; detail?: string }> {
    const def = functions.get(name);
    if (!def) return { ok: false, status: 404, detail: `Function ${name} not found` };
    try {
      const answer = await invoke(def, {
        method: 'POST',
        path: '/',
        headers: { 'content-type': 'application/json' },
        trigger: 'automation',
        body: Readable.from([Buffer.from(JSON.stringify(body))]),
      });
      let text = '';
      for await (const chunk of answer.body) if (text.length < 2000) text += String(chunk);
      const ok = answer.status >= 200 && answer.status < 300;
      return ok ? { ok, status: answer.status } : { ok, status: answer.status, detail: text.slice(0, 500) };
    } catch (error) {
      const status =
        error instanceof FunctionTimeoutError ? 504 : error instanceof FunctionsUnavailableError ? 503 : 502;
      return { ok: false, status, detail: (error as Error).message };
    }
  }

  return {
    /** runtime says whether functions can run, and with which Deno (the start-up report). */
    runtime: deno,
    /** find returns the function a path names and the rest of the path, or null. */
    find: (path: string) => findFunction(functions, path),
    names: () => [...functions.keys()],
    /** definitions are the loaded functions (their automations). */
    definitions: () => [...functions.values()],
    /**
     * reload takes a new set of functions (their files changed): the import map and package cache are
     * redone, and every process stops, so each call from now on runs the new code.
     */
    async reload(next: ReadonlyMap<string, FunctionDef>): Promise<void> {
      functions = next;
      if (files) {
        const fresh = await writeRuntimeFiles({
          dir: files.dir,
          codeDirs: deps.codeDirs,
          sdkVersion: deps.sdkVersion,
        });
        files = fresh;
      }
      cached.clear();
      pool.stopAll();
    },
    invoke,
    invokeJson,
    /** restartAll stops every process; each starts again, with fresh secrets, on its next call. */
    restartAll: () => pool.stopAll(),
    processes: () => pool.size(),
    /** settled resolves once every ended call has been recorded (a clean stop waits, then closes the logs). */
    settled: async (): Promise<void> => {
      await Promise.all([...collecting]);
    },
    /** killAll ends every function process at once (synchronous: safe in a process 'exit' handler). */
    killAll(): void {
      pool.close();
    },
    async close(): Promise<void> {
      pool.close();
      if (files) await rm(files.dir, { recursive: true, force: true });
    },
  };
}

export type FunctionsService = Awaited<ReturnType<typeof createFunctionsService>>;
