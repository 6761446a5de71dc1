// The messages between the main thread's Database (pglite-worker-database.ts) and the worker thread that
// owns PGlite (pglite-worker.ts). Values cross by structured clone (Date, bigint, Uint8Array survive).

/** PgliteWorkerData is what the worker is started with. */
export interface PgliteWorkerData {
  folder: string;
  /**
   * busySince is one BigInt64 slot: the Date.now() at which the statement the worker is running began, or
   * 0 when it runs none. The main thread's watchdog reads it while the worker is stuck inside WASM.
   */
  busySince: SharedArrayBuffer;
  /** sessionSettings are set on the engine's session when it opens (such as queen.regex_deadline_ms). */
  sessionSettings: Record<string, string>;
}

/** WorkerRequest is one call to the worker; `id` pairs it with its reply. */
export type WorkerRequest =
  /** query runs one statement, inside transaction `tx` when given. */
  | { type: 'query'; id: number; sql: string; params: unknown[]; tx?: number; reuse?: boolean }
  /** begin opens a transaction (held until its `end`); the reply's rows are empty, its id names it. */
  | { type: 'begin'; id: number }
  /** end commits (or rolls back) transaction `tx`. */
  | { type: 'end'; id: number; tx: number; commit: boolean }
  | { type: 'close'; id: number };

/** SerializedError is an error with the PostgreSQL fields callers read (code, detail, constraint…). */
export interface SerializedError {
  name: string;
  message: string;
  fields: Record<string, string | number>;
}

/** WorkerReply answers one request, or says the worker is ready (or could not open the database). */
export type WorkerReply =
  | { type: 'result'; id: number; rows: unknown[] }
  | { type: 'error'; id: number; error: SerializedError }
  | { type: 'ready' }
  | { type: 'failed'; error: SerializedError };

// The fields of a PostgreSQL error notice (PGlite's DatabaseError and pg's carry the same names). The SQL
// text and the parameters PGlite attaches to an error are left out on purpose: they may hold user data.
const POSTGRES_ERROR_FIELDS = [
  'code',
  'severity',
  'detail',
  'hint',
  'position',
  'internalPosition',
  'internalQuery',
  'where',
  'schema',
  'table',
  'column',
  'dataType',
  'constraint',
  'file',
  'line',
  'routine',
] as const;

/** serializeError turns an error into a plain object that keeps its message and PostgreSQL fields. */
export function serializeError(error: unknown): SerializedError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields: Record<string, string | number> = {};
  const source = error as unknown as Record<string, unknown>;
  for (const key of POSTGRES_ERROR_FIELDS) {
    const value = source[key];
    if (typeof value === 'string' || typeof value === 'number') fields[key] = value;
  }
  return { name: error.name, message: error.message, fields };
}

/** deserializeError rebuilds an Error (with its PostgreSQL fields as properties) on the receiving side. */
export function deserializeError(serialized: SerializedError): Error {
  const error = Object.assign(new Error(serialized.message), serialized.fields);
  error.name = serialized.name;
  return error;
}
