// Wiring of backend functions: the project's functions, the Deno runtime, the sandbox's view of this
// server (a dedicated loopback address, accepted on the same Fastify server), and restarts on secret changes.
import { watch, type FSWatcher } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../../config/server-env';
import { registerAdminFunctionRoutes } from '../../routes/admin-functions';
import { registerFunctionsRoutes } from '../../routes/functions';
import { createFunctionsConsole } from '../../services/admin/functions-console';
import type { AppLogsService } from '../../services/app-logs/app-logs-service';
import type { AuditLog } from '../../services/audit/audit-log';
import { probeDeno, type DenoProbe } from '../../services/functions/deno-binary';
import { loadFunctions } from '../../services/functions/function-discovery';
import { createFunctionsService, type FunctionsService } from '../../services/functions/functions-service';
import type { SecretsService } from '../../services/secrets/secrets-service';
import { createFunctionStatsStore } from '../../store/function-stats-store';
import type { Part, Shared } from './part';

/** FunctionsPart is the functions service and where functions reach the API (set once listening). */
export interface FunctionsPart extends Part {
  service: FunctionsService;
  apiUrl: { value: string };
  /** watching says FUNCTIONS_WATCH is on; stopWatching ends it (a no-op when off). */
  watching: boolean;
  stopWatching: () => void;
}

/** shippedSdkVersion is the version of `@base44/sdk` this server installs (every function's SDK). */
export function shippedSdkVersion(): string {
  const require = createRequire(import.meta.url);
  return (require('@base44/sdk/package.json') as { version: string }).version;
}

/** loopbackPort is the port of a service URL (database, Redis), closed to functions on FUNCTIONS_API_HOST. */
function loopbackPort(url: string | undefined, fallback: number): number | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.port ? Number(parsed.port) : fallback;
  } catch {
    return null;
  }
}

/**
 * buildFunctionsPart loads `functions/` and builds the service (calls answer 503 when Deno is unusable);
 * each call is recorded in the app logs, and every function restarts when an app secret changes.
 */
export async function buildFunctionsPart(
  shared: Shared,
  secrets: { secrets: SecretsService },
  appLogs: { appLogs: AppLogsService; audit: AuditLog },
): Promise<FunctionsPart> {
  const { config, project, logger: log } = shared;
  const shown = (file: string) => relative(process.cwd(), file) || file;
  const functionsDir = join(project.dir, 'functions');
  const functions = await loadFunctions(functionsDir, shown);
  // Probed only when needed: running `deno --version` costs a process start on every server (and test) boot.
  const deno: DenoProbe =
    functions.size > 0 || watchOn(config)
      ? await probeDeno(config.DENO_PATH)
      : { ok: false, problem: 'not looked for: the project has no functions' };
  const apiUrl = { value: `http://127.0.0.1:${config.PORT}` };
  const deniedPorts = [
    5432,
    6379,
    loopbackPort(config.DATABASE_URL, 5432),
    loopbackPort(config.REDIS_URL, 6379),
  ];
  const service = await createFunctionsService({
    appId: config.APP_ID,
    functions,
    deno,
    denoDir: config.FUNCTIONS_DENO_DIR ?? join(config.DATA_DIR, 'deno'),
    codeDirs: [functionsDir, join(project.dir, 'shared')],
    sdkVersion: shippedSdkVersion(),
    apiUrl: () => apiUrl.value,
    apiHost: config.FUNCTIONS_API_HOST,
    deniedPorts: deniedPorts.filter((port): port is number => port !== null),
    limits: {
      instances: config.FUNCTION_INSTANCES,
      maxProcesses: config.FUNCTION_MAX_PROCESSES,
      idleMs: config.FUNCTION_IDLE_S * 1000,
      timeoutMs: config.FUNCTION_TIMEOUT_S * 1000,
      memoryMb: config.FUNCTION_MEMORY_MB,
      processMemoryMb: config.FUNCTION_PROCESS_MEMORY_MB,
      openFiles: config.FUNCTION_MAX_OPEN_FILES,
    },
    secretsFor: (appId) => secrets.secrets.secretsFor(appId),
    mintCallToken: shared.identity.tokens.mintCallToken,
    log: log.child({ component: 'functions' }),
    recordCall: (call) => appLogs.appLogs.recordFunctionCall(config.APP_ID, call),
    watch: watchOn(config),
  });
  // Every function's environment holds all the app's secrets: a change restarts them (on their next call).
  secrets.secrets.subscribe(() => service.restartAll());
  if (functions.size > 0 && !deno.ok) {
    log.warn({ problem: deno.problem }, 'functions runtime unavailable: function calls answer 503');
  } else if (functions.size > 0 && deno.ok) {
    log.info({ functions: functions.size, deno: deno.runtime.version, path: deno.runtime.path }, 'functions');
  }
  let stopListening = async (): Promise<void> => undefined;
  const part: FunctionsPart = {
    name: 'functions',
    service,
    apiUrl,
    watching: watchOn(config) && deno.ok,
    stopWatching: () => undefined,
    async routes(app, { guard }) {
      await registerFunctionsRoutes(app, {
        guard,
        appId: config.APP_ID,
        functions: service,
        maxBodyBytes: config.FUNCTION_MAX_BODY_MB * 1024 * 1024,
      });
      // The console's Functions page (admin-only) sits with the service it reads and calls.
      registerAdminFunctionRoutes(app, {
        guard,
        console: createFunctionsConsole({
          appId: config.APP_ID,
          functions: service,
          stats: createFunctionStatsStore(shared.db),
          appLogs: appLogs.appLogs,
          access: shared.access,
          issueToken: (user) => shared.identity.tokens.issueToken(user),
          audit: appLogs.audit,
        }),
      });
      stopListening = listenForFunctions(
        app,
        part,
        config.FUNCTIONS_API_HOST,
        config.FUNCTIONS_MAX_CONNECTIONS,
      );
    },
    // Calls that just ended are recorded (their output's grace period) before the app logs close.
    async close() {
      await service.settled();
      await stopListening();
    },
  };
  if (part.watching) {
    part.stopWatching = watchFunctions([functionsDir, join(project.dir, 'shared')], async () => {
      try {
        await service.reload(await loadFunctions(functionsDir, shown));
        log.info({ functions: service.names().length }, 'functions changed: reloaded');
      } catch (error) {
        // A half-edited function.jsonc: keep running the last good set until the next change.
        log.warn({ err: error }, 'functions changed but could not be loaded: kept the previous ones');
      }
    });
  }
  return part;
}

/** watchOn says whether FUNCTIONS_WATCH is on: said so, or unset in development (NODE_ENV unset or development). */
function watchOn(config: ServerConfig): boolean {
  const development = (process.env.NODE_ENV ?? 'development') === 'development';
  return config.FUNCTIONS_WATCH === 'on' || (config.FUNCTIONS_WATCH === undefined && development);
}

/** watchFunctions calls onChange 300 ms after the last change under dirs (missing ones are skipped). */
function watchFunctions(dirs: string[], onChange: () => Promise<void>): () => void {
  let timer: NodeJS.Timeout | undefined;
  let running = Promise.resolve();
  const changed = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      running = running.then(onChange);
    }, 300);
  };
  const watchers: FSWatcher[] = [];
  for (const dir of dirs) {
    try {
      watchers.push(watch(dir, { recursive: true }, changed));
    } catch {
      // No such folder: nothing to watch there.
    }
  }
  return () => {
    clearTimeout(timer);
    for (const watcher of watchers) watcher.close();
  };
}

/**
 * listenForFunctions makes the server also accept connections on FUNCTIONS_API_HOST (an ephemeral port),
 * the one loopback address the sandbox may reach, once the server listens; the processes are killed before
 * the server waits for its connections, and the returned stop closes the service and that listener.
 */
function listenForFunctions(
  app: FastifyInstance,
  part: FunctionsPart,
  host: string,
  maxConnections: number,
): () => Promise<void> {
  let extra: Server | null = null;
  app.addHook('onListen', async () => {
    if (part.service.names().length === 0 && !part.watching) return;
    const server = createServer((socket) => app.server.emit('connection', socket));
    // Functions may open connections in a loop: past the cap, new ones are closed at once (each held one
    // of the server's descriptors). Dropped ones are counted in one warning per second.
    server.maxConnections = maxConnections;
    let dropped = 0;
    server.on('drop', () => {
      dropped += 1;
      if (dropped > 1) return;
      setTimeout(() => {
        app.log.warn({ dropped, maxConnections }, 'function connections to the API refused: too many open');
        dropped = 0;
      }, 1000).unref();
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, host, () => resolve());
    });
    const address = server.address();
    if (address && typeof address === 'object') part.apiUrl.value = `http://${host}:${address.port}`;
    extra = server;
  });
  // However the process ends (a shutdown past its deadline, a failed one, an uncaught error), no function
  // process outlives it: they run as another user and would otherwise be left running.
  const killAll = () => part.service.killAll();
  process.once('exit', killAll);
  // Before the server waits for its connections to end: the functions' own keep-alive connections to the
  // API would hold the close until its deadline.
  app.addHook('preClose', async () => {
    part.stopWatching();
    killAll();
  });
  return async () => {
    process.off('exit', killAll);
    await part.service.close();
    await new Promise<void>((resolve) => (extra ? extra.close(() => resolve()) : resolve()));
  };
}
