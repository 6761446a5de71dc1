// One running Deno process of one function: spawned with the sandbox flags and a clean environment, ready
// once the patch prints its marker, reached over its Unix socket with a keep-alive agent. Its output is
// passed to the log, split on the raw bytes with a bound per line; its stderr tail explains a failed start.
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent } from 'node:http';
import type { Readable } from 'node:stream';
import { splitLines, type LineSink } from './line-splitter';
import { NO_HANDLER_EXIT_CODE, READY_MARKER } from './runtime-files';

/** STDERR_TAIL_BYTES bounds the stderr kept to explain a failed start. */
const STDERR_TAIL_BYTES = 8 * 1024;
/**
 * RAW_LINE_BYTES bounds one line of a function's output as handed over, and what the server holds of a line
 * in progress (the rest is dropped and counted): the receiver redacts secrets (up to 32 KiB each) first and
 * then cuts it to its own bound, so no secret is ever cut in two unseen.
 */
export const RAW_LINE_BYTES = 64 * 1024;
/** OUTPUT_CUT_NOTICE is the line that follows a line cut at RAW_LINE_BYTES, in the logs. */
export const OUTPUT_CUT_NOTICE = `[output cut: the line above is longer than ${RAW_LINE_BYTES / 1024} KiB; the rest of it is dropped]`;

/** FunctionStartError says a function did not become ready; detail is its stderr (a compile error). */
export class FunctionStartError extends Error {
  override name = 'FunctionStartError';
  constructor(
    message: string,
    readonly detail: string,
  ) {
    super(message);
  }
}

/** FunctionOutput receives each line a function prints (at most RAW_LINE_BYTES), for the logs. */
export type FunctionOutput = (stream: 'stdout' | 'stderr', line: string) => void;
/** OutputCut receives how many bytes of one cut line were dropped, once that line ended. */
export type OutputCut = (stream: 'stdout' | 'stderr', droppedBytes: number) => void;

/** SpawnSpec is how to start one process. */
export interface SpawnSpec {
  denoPath: string;
  args: string[];
  env: Record<string, string>;
  socketPath: string;
  startTimeoutMs: number;
  /** user runs the child as another uid/gid (when the server runs as root). */
  user?: { uid: number; gid: number } | undefined;
  output: FunctionOutput;
  outputCut?: OutputCut;
  /** limits are the process's own bounds (see limitedCommand); none on Windows, which has no rlimits. */
  limits?: ProcessLimits | undefined;
}

/** ProcessLimits bound a whole process, whatever its isolates do. */
export interface ProcessLimits {
  /** openFiles is RLIMIT_NOFILE: its descriptors, so its sockets. */
  openFiles: number;
  /**
   * dataMb is RLIMIT_DATA: its private writable memory, so every isolate's (a Worker's too: each one
   * reserves about 512 MB of it up front) and every ArrayBuffer. FUNCTION_MEMORY_MB bounds one heap only.
   */
  dataMb: number;
}

/**
 * limitedCommand runs command under limits: the shell sets them (soft and hard, so the process cannot raise
 * them) and then becomes the command, so its pid, signals and exit are the command's own. Node's spawn has
 * no rlimit option, and `prlimit` is not on every system; `/bin/sh` is.
 */
export function limitedCommand(
  command: string,
  args: string[],
  limits: ProcessLimits | undefined,
): { command: string; args: string[] } {
  if (!limits || process.platform === 'win32') return { command, args };
  // The shell exports PWD: unset, so the command's environment is exactly the one given.
  const script = 'ulimit -n "$1" && ulimit -d "$2" && shift 2 && unset PWD && exec "$@"';
  const data = String(limits.dataMb * 1024);
  return {
    command: '/bin/sh',
    args: ['-c', script, 'function', String(limits.openFiles), data, command, ...args],
  };
}

/** FunctionProcess is a ready process: its socket, agent, and how many calls it is serving. */
export interface FunctionProcess {
  socketPath: string;
  agent: Agent;
  active: number;
  lastUsed: number;
  /** exited resolves when the process has ended, with why (a signal or an exit code). */
  exited: Promise<string>;
  isAlive(): boolean;
  /** kill stops the process at once (SIGKILL: a function gets no say in ending). */
  kill(): void;
  /**
   * retire takes the process out of service at once and kills it after graceMs unless it ended first, so a
   * crashing process can print its uncaught error (for the logs) before it goes.
   */
  retire(graceMs: number): void;
}

function stopChild(child: ChildProcess): void {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** startFunctionProcess spawns the process and resolves once it listens, or rejects with FunctionStartError. */
export function startFunctionProcess(spec: SpawnSpec): Promise<FunctionProcess> {
  const run = limitedCommand(spec.denoPath, spec.args, spec.limits);
  const child = spawn(run.command, run.args, {
    env: spec.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(spec.user ? { uid: spec.user.uid, gid: spec.user.gid } : {}),
  });
  let stderrTail = '';
  let alive = true;
  const exited = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => {
      alive = false;
      resolve(signal ? `signal ${signal}` : `exit code ${code}`);
    });
    child.once('error', (error) => {
      alive = false;
      resolve(error.message);
    });
  });

  return new Promise<FunctionProcess>((resolve, reject) => {
    let ready = false;
    const fail = (why: string) => {
      if (ready) return;
      ready = true;
      clearTimeout(timer);
      stopChild(child);
      reject(new FunctionStartError(why, stderrTail.trim()));
    };
    const timer = setTimeout(
      () => fail(`did not start within ${spec.startTimeoutMs} ms`),
      spec.startTimeoutMs,
    );
    const readyProcess = (): FunctionProcess => {
      const agent = new Agent({ keepAlive: true });
      return {
        socketPath: spec.socketPath,
        agent,
        active: 0,
        lastUsed: Date.now(),
        exited,
        isAlive: () => alive,
        kill: () => {
          // Dead from now on for the pool, before the exit event arrives.
          alive = false;
          agent.destroy();
          stopChild(child);
        },
        retire: (graceMs) => {
          alive = false;
          agent.destroy();
          const timer = setTimeout(() => stopChild(child), graceMs);
          timer.unref();
          void exited.then(() => clearTimeout(timer));
        },
      };
    };
    /** sinkOf hands a stream's lines to the log (cut ones followed by the notice), counting what was dropped. */
    const sinkOf = (stream: 'stdout' | 'stderr', line: (text: string) => void): LineSink => ({
      line,
      overflow: () => spec.output(stream, OUTPUT_CUT_NOTICE),
      dropped: (bytes) => spec.outputCut?.(stream, bytes),
    });
    splitLines(
      child.stdout as Readable,
      RAW_LINE_BYTES,
      sinkOf('stdout', (line) => {
        if (!ready && line === READY_MARKER) {
          ready = true;
          clearTimeout(timer);
          resolve(readyProcess());
          return;
        }
        spec.output('stdout', line);
      }),
    );
    splitLines(
      child.stderr as Readable,
      RAW_LINE_BYTES,
      sinkOf('stderr', (line) => {
        stderrTail = `${stderrTail}${line}\n`.slice(-STDERR_TAIL_BYTES);
        spec.output('stderr', line);
      }),
    );
    void exited.then((why) =>
      fail(
        why === `exit code ${NO_HANDLER_EXIT_CODE}`
          ? 'has no handler: its module neither calls Deno.serve(handler) nor has an export default handler (a function, or an object with fetch)'
          : `exited before it was ready (${why})`,
      ),
    );
  });
}
