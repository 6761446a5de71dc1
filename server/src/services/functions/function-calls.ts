// Calls of one app's functions: a process leased from the runtime, the call's own short-lived service
// token minted, the call forwarded with the platform's headers (forward-call.ts), and once it ended, its
// status, duration and output (redacted and bounded) handed to the app logs off the request path.
import { Readable } from 'node:stream';
import type { OutputLine } from './call-output';
import { callHeaders } from './call-headers';
import {
  callStatusOf,
  FunctionLoadError,
  FunctionsUnavailableError,
  FunctionTimeoutError,
} from './function-errors';
import type { FunctionDef } from './function-discovery';
import type { Lease } from './function-pool';
import type { FunctionRuntime } from './function-runtime';
import type { FunctionAnswer, FunctionCall, FunctionsServiceDeps } from './functions-types';
import { forwardCall } from './forward-call';

/** JsonCallOutcome is how a service-role call ended (never thrown): a short detail on failure. */
export interface JsonCallOutcome {
  ok: boolean;
  status: number;
  detail?: string;
}

/** FunctionCalls are the calls of one app's functions. */
export interface FunctionCalls {
  /** invoke runs one call of def: its answer (body streaming), or a platform error thrown. */
  invoke(def: FunctionDef, call: FunctionCall): Promise<FunctionAnswer>;
  /** invokeJson calls name with a JSON body as the service role (automations); never throws. */
  invokeJson(name: string, body: unknown): Promise<JsonCallOutcome>;
  /** settled resolves once every ended call has been recorded. */
  settled(): Promise<void>;
}

type CollectedOutput = { lines: OutputLine[]; dropped: number };

/** loadFailureOutput is a failed start's compiler output (already redacted), as the call's output. */
function loadFailureOutput(error: unknown): CollectedOutput {
  const detail = error instanceof FunctionLoadError ? error.detail : '';
  const lines = detail
    .split('\n')
    .filter((line) => line.length > 0)
    .slice(0, 200)
    .map((line): OutputLine => ({ stream: 'stderr', line: line.slice(0, 2000) }));
  return { lines, dropped: 0 };
}

/** createFunctionCalls returns the calls of the functions runtime holds; see the file comment. */
export function createFunctionCalls(deps: FunctionsServiceDeps, runtime: FunctionRuntime): FunctionCalls {
  /** collecting are calls still in their output grace period (settled on close, then recorded). */
  const collecting = new Set<Promise<void>>();

  /** record hands one ended call to the app logs. */
  function record(
    def: FunctionDef,
    call: FunctionCall,
    status: number,
    durationMs: number,
    output: CollectedOutput,
  ): void {
    deps.recordCall?.({
      function: def.name,
      requestId: call.requestId ?? null,
      trigger: call.trigger ?? 'http',
      userId: call.userId ?? null,
      status,
      durationMs,
      output: output.lines,
      outputDropped: output.dropped,
      at: new Date().toISOString(),
    });
  }

  /** leaseFor leases a process for the call; a start that failed is recorded as the call's outcome. */
  async function leaseFor(def: FunctionDef, call: FunctionCall, started: number): Promise<Lease> {
    try {
      return await runtime.acquire(def.name);
    } catch (error) {
      record(def, call, callStatusOf(error), Date.now() - started, loadFailureOutput(error));
      throw error;
    }
  }

  async function invoke(def: FunctionDef, call: FunctionCall): Promise<FunctionAnswer> {
    const started = Date.now();
    if (!deps.deno.ok) {
      record(def, call, 503, 0, { lines: [], dropped: 0 });
      throw new FunctionsUnavailableError('functions runtime unavailable');
    }
    const timeoutSeconds = Math.ceil(deps.limits.timeoutMs / 1000);
    const lease = await leaseFor(def, call, started);
    let callToken: { token: string; end(): void } | null = null;
    let headers: ReturnType<typeof callHeaders>;
    try {
      callToken = await deps.mintCallToken(deps.appId, timeoutSeconds + 60);
      headers = callHeaders(call.headers, {
        appId: deps.appId,
        apiUrl: deps.apiUrl(),
        serviceToken: callToken.token,
      });
    } catch (error) {
      callToken?.end();
      lease.release();
      throw error;
    }
    const token = callToken;
    const bearer = /^Bearer\s+(\S+)$/i.exec(String(call.headers.authorization ?? ''))?.[1];
    const tap = runtime.tapOf(lease.process);
    const output = tap?.begin(bearer ? [token.token, bearer] : [token.token]);
    /** finish records the call once its output is complete (off the request path). */
    const finish = (status: number) => {
      const durationMs = Date.now() - started;
      if (!tap || !output) return record(def, call, status, durationMs, { lines: [], dropped: 0 });
      const pending = tap.end(output).then((collected) => record(def, call, status, durationMs, collected));
      collecting.add(pending);
      void pending.finally(() => collecting.delete(pending));
    };
    return forwardCall({
      name: def.name,
      call,
      lease,
      headers,
      timeoutMs: deps.limits.timeoutMs,
      started,
      log: deps.log,
      ended: (status) => {
        // The call's token ends with it: printed or answered by the function, it opens nothing afterwards.
        token.end();
        lease.release();
        finish(status);
      },
    });
  }

  /**
   * invokeJson calls name with a JSON body as the service role (automations): no user, the call's minted
   * service token only. Never throws: the outcome and, on failure, a short detail for the log and retries.
   */
  async function invokeJson(name: string, body: unknown): Promise<JsonCallOutcome> {
    const def = runtime.functions().get(name);
    if (!def) return { ok: false, status: 404, detail: `Function ${name} not found` };
    try {
      const answer = await invoke(def, {
        method: 'POST',
        path: '/',
        headers: { 'content-type': 'application/json' },
        trigger: 'automation',
        body: Readable.from([Buffer.from(JSON.stringify(body))]),
      });
      let text = '';
      for await (const chunk of answer.body) if (text.length < 2000) text += String(chunk);
      const ok = answer.status >= 200 && answer.status < 300;
      return ok ? { ok, status: answer.status } : { ok, status: answer.status, detail: text.slice(0, 500) };
    } catch (error) {
      const status =
        error instanceof FunctionTimeoutError ? 504 : error instanceof FunctionsUnavailableError ? 503 : 502;
      return { ok: false, status, detail: (error as Error).message };
    }
  }

  return {
    invoke,
    invokeJson,
    settled: async () => {
      await Promise.all([...collecting]);
    },
  };
}
