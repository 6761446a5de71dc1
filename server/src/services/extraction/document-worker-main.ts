// The document worker thread's entry (bundled as dist/document-worker.js): one request at a time, each
// answered with plain data; see document-worker.ts for the pool, the deadline and the heap cap.
import { parentPort } from 'node:worker_threads';
import { InvalidInputError } from '../../lib/errors';
import type { DocumentRequest, WorkerReply } from './document-protocol';
import { performDocumentTask } from './document-tasks';

const port = parentPort;
if (port) {
  port.on('message', (request: DocumentRequest & { id: number }) => {
    const reply = (message: WorkerReply) => port.postMessage(message);
    performDocumentTask(request).then(
      (answer) => reply({ id: request.id, answer }),
      (error: unknown) =>
        reply({
          id: request.id,
          error: String((error as Error | undefined)?.message ?? error).slice(0, 500),
          refused: error instanceof InvalidInputError,
        }),
    );
  });
}
