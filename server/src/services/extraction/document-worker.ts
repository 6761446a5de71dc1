// PDF and DOCX parsers work synchronously for as long as a document asks (pdf.js decodes a content stream
// again for every page that shows it; mammoth builds a DOM of the whole document.xml, ~50 bytes of memory
// for each byte of XML), so they run in a worker thread with a deadline and a heap of its own: a document
// that overruns either is refused, and the server's event loop and heap are not the ones spent.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { InvalidInputError } from '../../lib/errors';

/** DOCUMENT_TIMEOUT_MS bounds the time one document's text may take to read. */
export const DOCUMENT_TIMEOUT_MS = 20_000;
/** DOCUMENT_HEAP_MB bounds the worker's heap (its V8 old generation) while it reads one document. */
export const DOCUMENT_HEAP_MB = 1024;

/** MAX_DOCUMENT_WORKERS bounds the documents read at once (each worker may use DOCUMENT_HEAP_MB); others wait. */
export const MAX_DOCUMENT_WORKERS = 2;

let running = 0;
let peak = 0;
const waiting: (() => void)[] = [];

/** documentWorkerPeak is the most workers that ran at once (for tests). */
export const documentWorkerPeak = (): number => peak;

async function slot(): Promise<() => void> {
  if (running >= MAX_DOCUMENT_WORKERS) await new Promise<void>((turn) => waiting.push(turn));
  running += 1;
  peak = Math.max(peak, running);
  return () => {
    running -= 1;
    waiting.shift()?.();
  };
}

/** DocumentTask is what the worker makes of the bytes: a PDF's text, a DOCX's text or its HTML. */
export type DocumentTask = 'pdf-text' | 'docx-text' | 'docx-html';

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const { task, bytes, modules, maxPages } = workerData;
  try {
    if (task === 'pdf-text') {
      const { PDFParse } = require(modules.pdf);
      const parser = new PDFParse({ data: bytes, isEvalSupported: false });
      try {
        const result = await parser.getText({ first: maxPages, pageJoiner: '' });
        parentPort.postMessage({ text: result.text });
      } finally {
        await parser.destroy().catch(() => undefined);
      }
    } else {
      const mammoth = require(modules.docx);
      const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const result = task === 'docx-text'
        ? await mammoth.extractRawText({ buffer })
        : await mammoth.convertToHtml({ buffer });
      parentPort.postMessage({ text: result.value });
    }
  } catch (error) {
    parentPort.postMessage({ error: String((error && error.message) || error) });
  }
})();
`;

const resolveModule = createRequire(import.meta.url).resolve;
const modules = { pdf: resolveModule('pdf-parse'), docx: resolveModule('mammoth') };

/**
 * readInWorker runs task on bytes off the main thread (at most MAX_DOCUMENT_WORKERS at once): the text, or
 * the parser's error; a document over timeoutMs or the worker's heap is an InvalidInputError saying so.
 */
export async function readInWorker(
  task: DocumentTask,
  bytes: Buffer,
  options: { timeoutMs?: number; maxPages: number; heapMb?: number },
): Promise<string> {
  const release = await slot();
  try {
    return await runWorker(task, bytes, options);
  } finally {
    release();
  }
}

function runWorker(
  task: DocumentTask,
  bytes: Buffer,
  options: { timeoutMs?: number; maxPages: number; heapMb?: number },
): Promise<string> {
  const timeoutMs = options.timeoutMs ?? DOCUMENT_TIMEOUT_MS;
  const what = task === 'pdf-text' ? 'The PDF' : 'The document';
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, {
      eval: true,
      workerData: { task, bytes: new Uint8Array(bytes), modules, maxPages: options.maxPages },
      resourceLimits: { maxOldGenerationSizeMb: options.heapMb ?? DOCUMENT_HEAP_MB },
    });
    let settled = false;
    const settle = (done: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      done();
    };
    const timer = setTimeout(
      () =>
        settle(() => reject(new InvalidInputError(`${what} took longer than ${timeoutMs / 1000} s to read`))),
      timeoutMs,
    );
    worker.once('message', (answer: { text?: string; error?: string }) =>
      settle(() =>
        answer.error !== undefined ? reject(new Error(answer.error)) : resolve(answer.text ?? ''),
      ),
    );
    worker.once('error', (error: Error & { code?: string }) =>
      settle(() =>
        reject(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new InvalidInputError(`${what} needs more memory to read than this server gives one file`)
            : error,
        ),
      ),
    );
    worker.once('exit', () =>
      settle(() => reject(new InvalidInputError(`${what} could not be read: its reader stopped`))),
    );
  });
}
