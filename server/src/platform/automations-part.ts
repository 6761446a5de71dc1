// Wiring of function automations (`function.jsonc` `automations`): the runner (services/automations/) calls
// functions as the service role; entity writes on this instance nudge it, other instances' writes are found
// by its poll. Started only when some function declares automations; connector automations are loaded and
// logged as not run (the runner says so: this server has no connectors).
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { createAutomationRunner } from '../services/automations/automation-runner';
import type { EntityEvents } from '../services/entities/entity-events';
import type { FunctionsService } from '../services/functions/functions-service';
import type { Database } from '../store/database';
import { createAutomationsStore } from '../store/automations-store';

/** startAutomations starts the runner on app's functions (none declared: nothing runs); app's close stops it. */
export async function startAutomations(input: {
  app: FastifyInstance;
  appId: string;
  db: Database;
  functions: FunctionsService;
  events: EntityEvents;
  /** timeoutMs is a function call's deadline; a claimed job stays this instance's claimGraceMs longer. */
  timeoutMs: number;
  claimGraceMs: number;
  /** limits are the runner's bounds (AUTOMATION_CONCURRENCY, AUTOMATION_MAX_QUEUED, …_PER_SOURCE). */
  limits: { concurrency: number; maxQueuedPerAutomation: number; maxQueuedPerSource: number };
  log: Logger;
}): Promise<void> {
  const { functions, log } = input;
  const declared = functions
    .definitions()
    .filter((def) => def.automations.length > 0)
    .map((def) => ({ functionName: def.name, automations: def.automations }));
  if (declared.length === 0) return;
  const runner = createAutomationRunner({
    appId: input.appId,
    store: createAutomationsStore(input.db),
    functions: declared,
    invoke: (name, body) => functions.invokeJson(name, body),
    log: log.child({ component: 'automations' }),
    lockMs: input.timeoutMs + input.claimGraceMs,
    ...input.limits,
  });
  await runner.start();
  const unsubscribe = input.events.subscribe(() => runner.nudge());
  // Before the database closes (onClose hooks run in order: this one is added before the platform closes db).
  input.app.addHook('onClose', async () => {
    unsubscribe();
    await runner.close();
  });
  log.info({ functions: declared.map((item) => item.functionName) }, 'automations running');
}
