import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { DatabaseUnavailableError } from '../lib/errors';
import type { Database, Queryable, QueryOptions } from './database';
import {
  deserializeError,
  type PgliteWorkerData,
  type WorkerReply,
  type WorkerRequest,
} from './pglite-worker-protocol';

/** DatabaseLog is the part of a pino logger the database uses. */
export interface DatabaseLog {
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

/** PgliteWorkerOptions bounds the embedded database. */
export interface PgliteWorkerOptions {
  /** queryTimeoutMs is how long one statement may run before the worker is restarted. */
  queryTimeoutMs: number;
  /** sessionSettings are set on the engine's session each time it opens. */
  sessionSettings?: Record<string, string>;
  log?: DatabaseLog;
}

/** spawnWorker starts pglite-worker: bundled beside this module in dist/, TypeScript beside it in src/. */
function spawnWorker(workerData: PgliteWorkerData): Worker {
  if (!import.meta.url.endsWith('.ts')) {
    return new Worker(new URL('./pglite-worker.js', import.meta.url), { workerData });
  }
  // From src/ (tsx, vitest) the worker goes through tsx's require hook: Node 20 does not apply ESM loader
  // hooks (`--import tsx`) to a worker's entry.
  const tsx = createRequire(import.meta.url).resolve('tsx/cjs/api');
  const entry = fileURLToPath(new URL('./pglite-worker.ts', import.meta.url));
  const boot = `require(${JSON.stringify(tsx)}).register(); require(${JSON.stringify(entry)});`;
  return new Worker(boot, { eval: true, workerData });
}

const RESTART_RETRY_MS = 1_000;

type WithoutId<R> = R extends unknown ? Omit<R, 'id'> : never;
/** Request is a WorkerRequest before `call` numbers it. */
type Request = WithoutId<WorkerRequest>;

interface Pending {
  resolve: (rows: unknown[]) => void;
  reject: (error: Error) => void;
}

/** Engine is one worker with PGlite open inside it and the calls it has not answered yet. */
interface Engine {
  worker: Worker;
  busySince: BigInt64Array;
  pending: Map<number, Pending>;
}

function startEngine(folder: string, sessionSettings: Record<string, string>): Promise<Engine> {
  const busySince = new SharedArrayBuffer(BigInt64Array.BYTES_PER_ELEMENT);
  const worker = spawnWorker({ folder, busySince, sessionSettings });
  return new Promise((resolve, reject) => {
    const failed = (error: Error) => {
      void worker.terminate();
      reject(error);
    };
    worker.once('error', failed);
    worker.once('exit', (code) => failed(new Error(`The database worker exited (${code}) while opening`)));
    worker.once('message', (message: WorkerReply) => {
      worker.removeAllListeners('error').removeAllListeners('exit');
      if (message.type === 'ready') {
        resolve({ worker, busySince: new BigInt64Array(busySince), pending: new Map() });
      } else {
        failed(message.type === 'failed' ? deserializeError(message.error) : new Error('unexpected reply'));
      }
    });
  });
}

/**
 * openPgliteWorkerDatabase opens (creating if needed) an embedded PostgreSQL in folder, inside a worker
 * thread, so that no statement can stall the HTTP server. A watchdog terminates the worker when a
 * statement runs longer than queryTimeoutMs and opens the folder again in a fresh one; the calls it had
 * not answered, and those made while it restarts, fail with DatabaseUnavailableError (503). Committed data
 * is safe: PGlite recovers its folder as after a crash.
 */
export async function openPgliteWorkerDatabase(
  folder: string,
  options: PgliteWorkerOptions,
): Promise<Database> {
  const { queryTimeoutMs, log } = options;
  let engine: Engine | null = await startEngine(folder, options.sessionSettings ?? {});
  let closed = false;
  let nextId = 0;

  const unavailable = () => new DatabaseUnavailableError('The database is restarting: try again in a moment');

  function attach(current: Engine) {
    current.worker.on('message', (message: WorkerReply) => {
      if (message.type !== 'result' && message.type !== 'error') return;
      const call = current.pending.get(message.id);
      if (!call) return;
      current.pending.delete(message.id);
      if (message.type === 'result') call.resolve(message.rows);
      else call.reject(deserializeError(message.error));
    });
    // A crash of the engine itself (a WASM abort) is handled like a runaway statement.
    current.worker.on('error', (error) => {
      log?.error({ err: error }, 'the embedded database failed: restarting it');
      restart(current, unavailable());
    });
    current.worker.on('exit', (code) => {
      if (engine === current && !closed) {
        log?.error({ code }, 'the embedded database stopped: restarting it');
        restart(current, unavailable());
      }
    });
  }

  // The restart under way, so that close can wait for it (and terminate what it opens).
  let restarting: Promise<void> = Promise.resolve();

  function restart(stuck: Engine, reason: DatabaseUnavailableError): void {
    if (engine !== stuck) return; // already restarting
    engine = null;
    restarting = reopen(stuck, reason);
  }

  async function reopen(stuck: Engine, reason: DatabaseUnavailableError): Promise<void> {
    for (const call of stuck.pending.values()) call.reject(reason);
    stuck.pending.clear();
    await stuck.worker.terminate();
    while (!closed) {
      try {
        const fresh = await startEngine(folder, options.sessionSettings ?? {});
        if (closed) {
          await fresh.worker.terminate();
          return;
        }
        attach(fresh);
        engine = fresh;
        return;
      } catch (error) {
        log?.error({ err: error }, 'the embedded database could not be opened again: retrying');
        await new Promise((wait) => setTimeout(wait, RESTART_RETRY_MS));
      }
    }
  }

  attach(engine);
  // The watchdog runs on the main thread, which a stuck worker leaves free.
  const watchdog = setInterval(
    () => {
      const current = engine;
      if (!current) return;
      const since = Number(Atomics.load(current.busySince, 0));
      if (since === 0 || Date.now() - since <= queryTimeoutMs) return;
      log?.warn(
        { deadlineMs: queryTimeoutMs },
        'a database statement outlived its deadline: restarting the embedded database',
      );
      restart(
        current,
        new DatabaseUnavailableError('The database did not answer in time: try again in a moment'),
      );
    },
    Math.max(10, Math.min(1_000, Math.floor(queryTimeoutMs / 5))),
  );
  watchdog.unref();

  function call(target: Engine | null, request: Request, id = ++nextId): Promise<unknown[]> {
    if (closed) return Promise.reject(new Error('The database is closed'));
    if (!target || target !== engine) return Promise.reject(unavailable());
    return send(target, request, id);
  }

  function send(target: Engine, request: Request, id = ++nextId): Promise<unknown[]> {
    return new Promise((resolve, reject) => {
      target.pending.set(id, { resolve, reject });
      target.worker.postMessage({ ...request, id } as WorkerRequest);
    });
  }

  function queryable(target: () => Engine | null, tx?: number): Queryable {
    return {
      async query<T>(sql: string, params: unknown[] = [], options: QueryOptions = {}) {
        const rows = await call(target(), {
          type: 'query',
          sql,
          params,
          ...(tx === undefined ? {} : { tx }),
          ...(options.reuse ? { reuse: true } : {}),
        });
        return { rows: rows as T[] };
      },
    };
  }

  return {
    ...queryable(() => engine),
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      // A transaction lives in one worker: after a restart its remaining calls fail as unavailable.
      const owner = engine;
      const id = ++nextId;
      await call(owner, { type: 'begin' }, id);
      let result: T;
      try {
        result = await fn(queryable(() => owner, id));
      } catch (error) {
        await call(owner, { type: 'end', tx: id, commit: false }).catch(() => undefined);
        throw error;
      }
      await call(owner, { type: 'end', tx: id, commit: true });
      return result;
    },
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(watchdog);
      await restarting;
      const current = engine;
      engine = null;
      if (!current) return;
      // Let PGlite shut down cleanly unless it is stuck; the worker is terminated either way.
      let timer: NodeJS.Timeout | undefined;
      const stuck = new Promise<void>((resolve) => (timer = setTimeout(resolve, queryTimeoutMs)));
      await Promise.race([send(current, { type: 'close' }).catch(() => undefined), stuck]);
      clearTimeout(timer);
      for (const pending of current.pending.values()) pending.reject(new Error('The database is closed'));
      await current.worker.terminate();
    },
  };
}
