// The functions service's vocabulary, shared by its runtime (function-runtime.ts) and its calls
// (function-calls.ts): what the service is built from, one call as the route hands it over, the answer,
// and the record the app logs keep of it.
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { OutputLine } from './call-output';
import type { DenoProbe } from './deno-binary';
import type { FunctionDef } from './function-discovery';
import type { PoolLimits } from './function-pool';

/** FunctionCall is one call, as the route hands it over: no request object, only its parts. */
export interface FunctionCall {
  method: string;
  /** path is what the function sees after its host: `/` plus the rest of the URL path and the query. */
  path: string;
  headers: IncomingHttpHeaders;
  body: Readable | null;
  /** requestId ties the call's log line to the HTTP request's (absent for automations). */
  requestId?: string;
  /** trigger says who called: an HTTP request (default) or an automation. */
  trigger?: 'http' | 'automation';
  /** userId is the signed-in caller's user id, as the call's log keeps it (none: anonymous, automation). */
  userId?: string | null;
}

/** FunctionCallRecord is one call as the app logs keep it (output redacted and bounded). */
export interface FunctionCallRecord {
  function: string;
  requestId: string | null;
  trigger: 'http' | 'automation';
  /** userId is the signed-in caller's user id, or null. */
  userId: string | null;
  /** status is the function's HTTP status, or the platform's (502 crash or load failure, 504 timeout, 503). */
  status: number;
  durationMs: number;
  output: OutputLine[];
  /** outputDropped counts lines past the per-call bounds (CALL_OUTPUT_LIMITS). */
  outputDropped: number;
  /** at is when the call ended (ISO 8601). */
  at: string;
}

/** FunctionAnswer is the function's response, its body still streaming. */
export interface FunctionAnswer {
  status: number;
  headers: Record<string, string | string[]>;
  body: Readable;
}

export interface FunctionsLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/** FunctionLimits bound the processes (the pool's limits) and each call. */
export type FunctionLimits = PoolLimits & {
  timeoutMs: number;
  memoryMb: number;
  processMemoryMb: number;
  openFiles: number;
};

/** FunctionsServiceDeps is what the service is built from (platform.ts). */
export interface FunctionsServiceDeps {
  appId: string;
  functions: ReadonlyMap<string, FunctionDef>;
  deno: DenoProbe;
  /** denoDir is Deno's package cache (generated files go to a temp folder of this run). */
  denoDir: string;
  /** codeDirs are scanned for SDK versions (functions and `shared/`). */
  codeDirs: string[];
  sdkVersion: string;
  /** apiUrl is this server's API as functions reach it (`http://<FUNCTIONS_API_HOST>:<port>`), set once listening. */
  apiUrl: () => string;
  apiHost: string;
  deniedPorts: number[];
  limits: FunctionLimits;
  secretsFor: (appId: string) => Promise<Record<string, string>>;
  /** mintCallToken mints a call's own service-role token, valid until end() (the call ended) at the latest. */
  mintCallToken: (appId: string, seconds: number) => Promise<{ token: string; end(): void }>;
  log: FunctionsLog;
  /** recordCall receives every call once it ended (the app logs; must not block). */
  recordCall?: (record: FunctionCallRecord) => void;
  /** watch prepares the runtime even with no function yet (FUNCTIONS_WATCH: functions may be added). */
  watch?: boolean;
  /** runAs overrides the child's user (default: nobody when the server runs as root). */
  runAs?: { uid: number; gid: number } | null;
}
