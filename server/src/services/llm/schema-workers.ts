// The main thread's side of the schema workers (schema-worker.ts): a small pool, each worker with a heap of
// its own and one request at a time under a deadline. A worker past its deadline or its heap is terminated
// (and replaced on the next request), so a schema or an answer costs the server at most that much.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { TooManyRequestsError } from '../../lib/errors';
import type { SchemaReply, SchemaRequest } from './schema-checker';

/** SCHEMA_CHECK_TIMEOUT_MS bounds one compile or one validation of a model's answer. */
export const SCHEMA_CHECK_TIMEOUT_MS = 2_000;
/** SCHEMA_WORKER_HEAP_MB bounds each schema worker's heap (its V8 old generation). */
export const SCHEMA_WORKER_HEAP_MB = 256;
/** SCHEMA_WORKERS is how many schemas are checked at once; other checks wait their turn. */
export const SCHEMA_WORKERS = 2;

/** CheckOutcome is the worker's reply, or why there is none: the deadline or the heap ran out, or it failed. */
export type CheckOutcome =
  | Omit<Extract<SchemaReply, { ok: true }>, 'id'>
  | Omit<Extract<SchemaReply, { ok: false }>, 'id'>
  | { ok: false; overrun: 'time' | 'memory' | 'crash' };

type Request = SchemaRequest extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never;

interface Job {
  request: Request;
  done: (outcome: CheckOutcome) => void;
}

interface Slot {
  worker: Worker | null;
  /** ready is set once the worker has loaded ajv: a job's deadline starts then, not while it boots. */
  ready: boolean;
  job: Job | null;
  timer: NodeJS.Timeout | undefined;
}

/**
 * retire stops a worker whose answers no longer matter. Its listeners go, but an 'error' one stays: a
 * worker out of heap may still report it while terminating (Node 24 does), and an unheard 'error' throws.
 */
function retire(worker: Worker): Promise<number> {
  worker.removeAllListeners();
  worker.on('error', () => undefined);
  return worker.terminate();
}

/** MAX_WAITING_CHECKS is how many schema checks may wait for a worker. */
export const MAX_WAITING_CHECKS = 64;
/** BOOT_TIMEOUT_MS bounds a worker's start (loading ajv); past it the waiting check fails. */
const BOOT_TIMEOUT_MS = 15_000;

/** spawnWorker starts schema-worker: bundled beside this module in dist/, TypeScript beside it in src/. */
function spawnWorker(heapMb: number): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: heapMb };
  if (!import.meta.url.endsWith('.ts')) {
    return new Worker(new URL('./schema-worker.js', import.meta.url), { resourceLimits });
  }
  // From src/ (tsx, vitest) the worker goes through tsx's require hook, as pglite-worker's does.
  const tsx = createRequire(import.meta.url).resolve('tsx/cjs/api');
  const entry = fileURLToPath(new URL('./schema-worker.ts', import.meta.url));
  const boot = `require(${JSON.stringify(tsx)}).register(); require(${JSON.stringify(entry)});`;
  return new Worker(boot, { eval: true, resourceLimits });
}

/** createSchemaWorkers builds a pool; workers start on first use and never keep the process alive. */
export function createSchemaWorkers(options: { timeoutMs?: number; heapMb?: number; workers?: number } = {}) {
  const timeoutMs = options.timeoutMs ?? SCHEMA_CHECK_TIMEOUT_MS;
  const heapMb = options.heapMb ?? SCHEMA_WORKER_HEAP_MB;
  const slots: Slot[] = Array.from({ length: options.workers ?? SCHEMA_WORKERS }, () => ({
    worker: null,
    ready: false,
    job: null,
    timer: undefined,
  }));
  const queue: Job[] = [];
  let nextId = 1;

  /** finish hands the slot's job its outcome; a worker that did not answer is dropped. */
  function finish(slot: Slot, outcome: CheckOutcome, dropWorker: boolean): void {
    const job = slot.job;
    clearTimeout(slot.timer);
    slot.job = null;
    if (dropWorker && slot.worker) {
      const worker = slot.worker;
      slot.worker = null;
      void retire(worker);
    }
    job?.done(outcome);
    dispatch();
  }

  /** send posts the slot's job to its ready worker, under the deadline. */
  function send(slot: Slot): void {
    if (!slot.job || !slot.worker) return;
    clearTimeout(slot.timer);
    slot.timer = setTimeout(() => finish(slot, { ok: false, overrun: 'time' }, true), timeoutMs);
    slot.worker.postMessage({ ...slot.job.request, id: nextId++ });
  }

  function start(slot: Slot): Worker {
    const worker = spawnWorker(heapMb);
    worker.unref();
    slot.ready = false;
    slot.timer = setTimeout(() => finish(slot, { ok: false, overrun: 'crash' }, true), BOOT_TIMEOUT_MS);
    worker.on('message', (reply: SchemaReply | { ready: true }) => {
      if ('ready' in reply) {
        slot.ready = true;
        return send(slot);
      }
      const outcome: CheckOutcome = reply.ok
        ? { ok: true }
        : { ok: false, problem: reply.problem, schemaInvalid: reply.schemaInvalid };
      finish(slot, outcome, false);
    });
    worker.on('error', (error: Error & { code?: string }) => {
      // Out of heap is the answer's or the schema's doing; anything else is a fault of ours, said as such.
      finish(
        slot,
        { ok: false, overrun: error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'memory' : 'crash' },
        true,
      );
    });
    worker.on('exit', () => finish(slot, { ok: false, overrun: 'crash' }, true));
    return worker;
  }

  function dispatch(): void {
    for (const slot of slots) {
      if (slot.job || queue.length === 0) continue;
      slot.job = queue.shift() as Job;
      if (!slot.worker) slot.worker = start(slot);
      else if (slot.ready) send(slot);
    }
  }

  return {
    /**
     * run has a worker answer request, or says it ran out of time or heap. It throws 429 when
     * MAX_WAITING_CHECKS already wait (callers are bounded upstream; this is the backstop).
     */
    run(request: Request): Promise<CheckOutcome> {
      if (queue.length >= MAX_WAITING_CHECKS) {
        throw new TooManyRequestsError(
          'The server is checking too many schemas at once: try again in a few seconds',
          5,
        );
      }
      return new Promise((done) => {
        queue.push({ request, done });
        dispatch();
      });
    },
    /** close stops the workers (tests; the process's exit stops them otherwise). */
    async close(): Promise<void> {
      await Promise.all(
        slots.map((slot) => {
          const worker = slot.worker;
          slot.worker = null;
          return worker ? retire(worker) : undefined;
        }),
      );
    },
  };
}

export type SchemaWorkers = ReturnType<typeof createSchemaWorkers>;
