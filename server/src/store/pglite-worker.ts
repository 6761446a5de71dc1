// The worker thread that owns PGlite, so that a statement running away inside its WASM engine stalls only
// this thread: the main thread keeps serving HTTP and its watchdog terminates this worker (see
// pglite-worker-database.ts). Statements run one at a time, as on PGlite's single connection; an open
// transaction holds the connection until the main thread ends it.
import { mkdir } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { extendedQuery, type PreparedStatements } from './pglite-extended-query';
import { createStatementNames } from './statement-names';
import {
  serializeError,
  type PgliteWorkerData,
  type WorkerReply,
  type WorkerRequest,
} from './pglite-worker-protocol';

if (!parentPort) throw new Error('pglite-worker.ts runs as a worker thread only');
const port = parentPort;
const { folder, busySince, sessionSettings } = workerData as PgliteWorkerData;
const busy = new BigInt64Array(busySince);
const reply = (message: WorkerReply) => port.postMessage(message);

/** timed runs one statement with its start published for the watchdog. */
async function timed<T>(run: () => Promise<T>): Promise<T> {
  Atomics.store(busy, 0, BigInt(Date.now()));
  try {
    return await run();
  } finally {
    Atomics.store(busy, 0, 0n);
  }
}

// The connection is handed out in turn: a statement outside a transaction, or a whole transaction. Our own
// queue (rather than PGlite's lock) means a statement's clock starts when it runs, not while it waits.
let turn: Promise<unknown> = Promise.resolve();
function inTurn<T>(work: () => Promise<T>): Promise<T> {
  const result = turn.then(work);
  turn = result.catch(() => undefined);
  return result;
}

interface OpenTransaction {
  tx: Transaction;
  end: (commit: boolean) => void;
  /** settled resolves when PGlite has committed (or rejects when it rolled back or failed to commit). */
  settled: Promise<void>;
}
const transactions = new Map<number, OpenTransaction>();
const ROLLBACK = Symbol('rollback');

function begin(pglite: PGlite, id: number): Promise<void> {
  return new Promise<void>((opened, failed) => {
    void inTurn(async () => {
      let end: (commit: boolean) => void = () => undefined;
      const decided = new Promise<boolean>((resolve) => (end = resolve));
      const settled = pglite.transaction(async (tx) => {
        transactions.set(id, { tx, end, settled });
        opened();
        if (!(await decided)) throw ROLLBACK;
      });
      await settled.catch(failed).finally(() => transactions.delete(id));
    });
  });
}

async function end(id: number, commit: boolean): Promise<void> {
  const open = transactions.get(id);
  if (!open) throw new Error(`No open transaction ${id}`);
  open.end(commit);
  await timed(() => open.settled).catch((error: unknown) => {
    if (error !== ROLLBACK) throw error;
  });
}

// Statements this engine has prepared (QueryOptions.reuse); a restarted worker starts with none.
const statementName = createStatementNames();
const prepared: PreparedStatements = new Set();

async function handle(pglite: PGlite, request: WorkerRequest): Promise<unknown[]> {
  switch (request.type) {
    case 'query': {
      const { sql, params, tx } = request;
      const name = request.reuse ? statementName(sql) : undefined;
      const named = name ? { name, prepared } : undefined;
      if (tx === undefined)
        return (await inTurn(() => timed(() => extendedQuery(pglite, sql, params, true, named)))).rows;
      if (!transactions.has(tx)) throw new Error(`No open transaction ${tx}`);
      // The transaction holds the connection (its turn), so its statements go straight to the engine.
      return (await timed(() => extendedQuery(pglite, sql, params, false, named))).rows;
    }
    case 'begin':
      await begin(pglite, request.id);
      return [];
    case 'end':
      await end(request.tx, request.commit);
      return [];
    case 'close':
      await inTurn(() => pglite.close());
      return [];
  }
}

async function start(): Promise<void> {
  await mkdir(folder, { recursive: true });
  const pglite = new PGlite(folder);
  await pglite.waitReady;
  for (const [name, value] of Object.entries(sessionSettings)) {
    await pglite.query('SELECT set_config($1, $2, false)', [name, value]);
  }
  port.on('message', (request: WorkerRequest) => {
    handle(pglite, request).then(
      (rows) => reply({ type: 'result', id: request.id, rows }),
      (error: unknown) => reply({ type: 'error', id: request.id, error: serializeError(error) }),
    );
  });
  reply({ type: 'ready' });
}

start().catch((error: unknown) => reply({ type: 'failed', error: serializeError(error) }));
