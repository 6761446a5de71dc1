// Every parser of a caller's file (csv-parse, SheetJS, JSON.parse, pdf.js, mammoth, the zip and Flate
// guards' inflating) works synchronously for as long as the file asks, so they run in worker threads with
// a deadline and a heap of their own: a file that overruns either is refused, and the server's event loop
// and heap are not the ones spent. Workers are kept for the next file (starting one and loading the
// parsers costs more than a small file's parse) and at most MAX_DOCUMENT_WORKERS run at once.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { InvalidInputError, TooManyRequestsError } from '../../lib/errors';
import type { DocumentAnswer, DocumentRequest, WorkerReply } from './document-protocol';

/** DOCUMENT_TIMEOUT_MS bounds the time one file may take to read. */
export const DOCUMENT_TIMEOUT_MS = 20_000;
/** DOCUMENT_HEAP_MB bounds the worker's heap (its V8 old generation) while it reads one file. */
export const DOCUMENT_HEAP_MB = 1024;
/** MAX_DOCUMENT_WORKERS bounds the files read at once (each worker may use DOCUMENT_HEAP_MB); others wait. */
export const MAX_DOCUMENT_WORKERS = 2;
/** DOCUMENT_WORKER_IDLE_MS is how long a worker waits for another file before it ends. */
const DOCUMENT_WORKER_IDLE_MS = 30_000;

interface Reader {
  worker: Worker;
  heapMb: number;
  idleTimer?: NodeJS.Timeout;
}

let running = 0;
let peak = 0;
let nextId = 1;
const waiting: (() => void)[] = [];
const idle: Reader[] = [];

/** documentWorkerPeak is the most workers that ran at once (for tests). */
export const documentWorkerPeak = (): number => peak;

/** MAX_WAITING_DOCUMENTS is how many documents may wait for a worker; more get a 429. */
export const MAX_WAITING_DOCUMENTS = 32;

async function slot(): Promise<() => void> {
  if (running >= MAX_DOCUMENT_WORKERS) {
    if (waiting.length >= MAX_WAITING_DOCUMENTS) {
      throw new TooManyRequestsError(
        'The server is reading too many documents at once: try again in a few seconds',
        5,
      );
    }
    await new Promise<void>((turn) => waiting.push(turn));
  }
  running += 1;
  peak = Math.max(peak, running);
  return () => {
    running -= 1;
    waiting.shift()?.();
  };
}

/** spawn starts document-worker: bundled beside this module in dist/, TypeScript beside it in src/. */
function spawn(heapMb: number): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: heapMb };
  if (!import.meta.url.endsWith('.ts')) {
    return new Worker(new URL('./document-worker.js', import.meta.url), { resourceLimits });
  }
  // From src/ (tsx, vitest) through tsx's require hook, as pglite-worker-database.ts explains.
  const tsx = createRequire(import.meta.url).resolve('tsx/cjs/api');
  const entry = fileURLToPath(new URL('./document-worker-main.ts', import.meta.url));
  const boot = `require(${JSON.stringify(tsx)}).register(); require(${JSON.stringify(entry)});`;
  return new Worker(boot, { eval: true, resourceLimits });
}

function takeReader(heapMb: number): Reader {
  const index = idle.findIndex((reader) => reader.heapMb === heapMb);
  const reader = index >= 0 ? idle.splice(index, 1)[0] : undefined;
  if (!reader) {
    const fresh: Reader = { worker: spawn(heapMb), heapMb };
    // A task listens for its own worker's failure; between tasks, one only leaves the idle list.
    fresh.worker.on('error', () => undefined);
    fresh.worker.on('exit', () => {
      const at = idle.indexOf(fresh);
      if (at >= 0) idle.splice(at, 1);
    });
    return fresh;
  }
  clearTimeout(reader.idleTimer);
  reader.worker.ref();
  return reader;
}

/** park keeps a worker that answered for the next file, for DOCUMENT_WORKER_IDLE_MS. */
function park(reader: Reader): void {
  if (idle.length >= MAX_DOCUMENT_WORKERS) {
    void reader.worker.terminate();
    return;
  }
  reader.worker.unref();
  reader.idleTimer = setTimeout(() => {
    const index = idle.indexOf(reader);
    if (index >= 0) idle.splice(index, 1);
    void reader.worker.terminate();
  }, DOCUMENT_WORKER_IDLE_MS);
  reader.idleTimer.unref();
  idle.push(reader);
}

/** DocumentTaskOptions name the file in messages ("The PDF") and may lower the deadline or the heap. */
export interface DocumentTaskOptions {
  what: string;
  timeoutMs?: number;
  heapMb?: number;
}

/**
 * runDocumentTask runs request in a worker (at most MAX_DOCUMENT_WORKERS at once): its answer; an
 * InvalidInputError when the file is refused (a bomb, over the deadline or the heap); else the parser's error.
 */
export async function runDocumentTask(
  request: DocumentRequest,
  options: DocumentTaskOptions,
): Promise<DocumentAnswer> {
  const release = await slot();
  try {
    const reader = takeReader(options.heapMb ?? DOCUMENT_HEAP_MB);
    return await ask(reader, request, options);
  } finally {
    release();
  }
}

function ask(
  reader: Reader,
  request: DocumentRequest,
  options: DocumentTaskOptions,
): Promise<DocumentAnswer> {
  const { worker } = reader;
  const timeoutMs = options.timeoutMs ?? DOCUMENT_TIMEOUT_MS;
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const settle = (done: () => void, healthy: boolean) => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (healthy) park(reader);
      else void worker.terminate();
      done();
    };
    const onMessage = (reply: WorkerReply) => {
      if (reply.id !== id) return;
      if ('answer' in reply) settle(() => resolve(reply.answer), true);
      else {
        const error = reply.refused ? new InvalidInputError(reply.error) : new Error(reply.error);
        settle(() => reject(error), true);
      }
    };
    const onError = (error: Error & { code?: string }) =>
      settle(
        () =>
          reject(
            error.code === 'ERR_WORKER_OUT_OF_MEMORY'
              ? new InvalidInputError(
                  `${options.what} needs more memory to read than this server gives one file`,
                )
              : error,
          ),
        false,
      );
    const onExit = () =>
      settle(
        () => reject(new InvalidInputError(`${options.what} could not be read: its reader stopped`)),
        false,
      );
    const timer = setTimeout(
      () =>
        settle(
          () =>
            reject(new InvalidInputError(`${options.what} took longer than ${timeoutMs / 1000} s to read`)),
          false,
        ),
      timeoutMs,
    );
    worker.on('message', onMessage);
    worker.once('error', onError);
    worker.once('exit', onExit);
    // The bytes are copied once and moved (not copied again) to the worker.
    const bytes = new Uint8Array(request.file.bytes);
    worker.postMessage({ ...request, id, file: { ...request.file, bytes } }, [bytes.buffer]);
  });
}
