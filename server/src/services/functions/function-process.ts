// One running Deno process of one function: spawned with the sandbox flags and a clean environment, ready
// once the patch prints its marker, reached over its Unix socket with a keep-alive agent. Its output is
// passed to the log, bounded per line; its stderr tail explains a failed start (a compile error).
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent } from 'node:http';
import { createInterface } from 'node:readline';
import { READY_MARKER } from './runtime-files';

/** STDERR_TAIL_BYTES bounds the stderr kept to explain a failed start. */
const STDERR_TAIL_BYTES = 8 * 1024;
/**
 * RAW_LINE_CHARS bounds one line of a function's output as handed over: the receiver redacts secrets (up to
 * 32 KiB each) first and then cuts it to its own bound, so no secret is ever cut in two unseen.
 */
const RAW_LINE_CHARS = 64 * 1024;

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

/** FunctionOutput receives each line a function prints (at most RAW_LINE_CHARS), for the logs. */
export type FunctionOutput = (stream: 'stdout' | 'stderr', line: string) => void;

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
  const child = spawn(spec.denoPath, spec.args, {
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
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      if (!ready && line === READY_MARKER) {
        ready = true;
        clearTimeout(timer);
        const agent = new Agent({ keepAlive: true });
        resolve({
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
        });
        return;
      }
      spec.output('stdout', line.slice(0, RAW_LINE_CHARS));
    });
    createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', (line) => {
      stderrTail = `${stderrTail}${line}\n`.slice(-STDERR_TAIL_BYTES);
      spec.output('stderr', line.slice(0, RAW_LINE_CHARS));
    });
    void exited.then((why) => fail(`exited before it was ready (${why})`));
  });
}
