// The worker thread that compiles callers' JSON schemas and validates models' answers against them (see
// schema-checker.ts), one request at a time: a costly schema stalls only this thread, and the main thread
// (schema-workers.ts) terminates it at its deadline.
import { parentPort } from 'node:worker_threads';
import { createSchemaChecker, type SchemaReply, type SchemaRequest } from './schema-checker';

if (!parentPort) throw new Error('schema-worker.ts runs as a worker thread only');
const port = parentPort;
const checker = createSchemaChecker();

port.on('message', (request: SchemaRequest) => {
  let reply: SchemaReply;
  try {
    reply = checker.answer(request);
  } catch (error) {
    // A stack overflow or ajv's own failure: the answer cannot be checked, which is not the caller's 500.
    reply = {
      id: request.id,
      ok: false,
      problem: `the answer could not be checked (${String((error as Error).message).slice(0, 100)})`,
      schemaInvalid: false,
    };
  }
  port.postMessage(reply);
});
port.postMessage({ ready: true });
