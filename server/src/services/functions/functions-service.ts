// Backend functions of one app: finds the function a path names and runs one call of it. Composed of the
// runtime (function-runtime.ts: sandbox, package cache, the pool of Deno processes, reload and restarts)
// and the calls (function-calls.ts: the call's token and headers, its deadline, its output for the logs).
import type { DenoProbe } from './deno-binary';
import { findFunction, type FunctionDef } from './function-discovery';
import { createFunctionCalls, type JsonCallOutcome } from './function-calls';
import { createFunctionRuntime } from './function-runtime';
import type { FunctionAnswer, FunctionCall, FunctionsServiceDeps } from './functions-types';

export type {
  FunctionAnswer,
  FunctionCall,
  FunctionCallRecord,
  FunctionsLog,
  FunctionsServiceDeps,
} from './functions-types';

/** FunctionsService is the backend functions of one app (routes, automations, the start-up report). */
export interface FunctionsService {
  /** runtime says whether functions can run, and with which Deno (the start-up report). */
  runtime: DenoProbe;
  /** find returns the function a path names and the rest of the path, or null. */
  find(path: string): { def: FunctionDef; rest: string } | null;
  /** names are the loaded functions' names. */
  names(): string[];
  /** definitions are the loaded functions (their automations). */
  definitions(): FunctionDef[];
  /** reload takes a new set of functions (their files changed): each call from now on runs the new code. */
  reload(next: ReadonlyMap<string, FunctionDef>): Promise<void>;
  /** invoke runs one call and resolves with the function's answer, its body still streaming. */
  invoke(def: FunctionDef, call: FunctionCall): Promise<FunctionAnswer>;
  /** invokeJson calls a function with a JSON body as the service role (automations); never throws. */
  invokeJson(name: string, body: unknown): Promise<JsonCallOutcome>;
  /** restartAll stops every process; each starts again, with fresh secrets, on its next call. */
  restartAll(): void;
  /** processes is how many function processes run now. */
  processes(): number;
  /** settled resolves once every ended call has been recorded (a clean stop waits, then closes the logs). */
  settled(): Promise<void>;
  /** killAll ends every function process at once (synchronous: safe in a process 'exit' handler). */
  killAll(): void;
  /** close ends every process and removes this run's generated files. */
  close(): Promise<void>;
}

/** createFunctionsService returns the functions of one app; see the file comment. */
export async function createFunctionsService(deps: FunctionsServiceDeps): Promise<FunctionsService> {
  const runtime = await createFunctionRuntime(deps);
  const calls = createFunctionCalls(deps, runtime);
  return {
    runtime: deps.deno,
    find: (path) => findFunction(runtime.functions(), path),
    names: () => [...runtime.functions().keys()],
    definitions: () => [...runtime.functions().values()],
    reload: (next) => runtime.reload(next),
    invoke: calls.invoke,
    invokeJson: calls.invokeJson,
    restartAll: () => runtime.restartAll(),
    processes: () => runtime.processes(),
    settled: calls.settled,
    killAll: () => runtime.killAll(),
    close: () => runtime.close(),
  };
}
