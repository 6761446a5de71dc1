// Function automations (`function.jsonc` `automations`): the runner (services/automations/) calls functions
// as the service role; entity writes on this instance nudge it, other instances' writes are found by its
// poll. It runs only when some function declares automations; connector automations are loaded and logged
// as not run (the runner says so: connector webhooks are not supported yet).
import { createAutomationRunner } from '../../services/automations/automation-runner';
import type { FunctionsService } from '../../services/functions/functions-service';
import { createAutomationsStore } from '../../store/automations-store';
import type { Part, Shared } from './part';

/** buildAutomationsPart starts the runner on the functions' automations (none declared: nothing runs). */
export async function buildAutomationsPart(
  shared: Shared,
  functions: { service: FunctionsService },
): Promise<Part> {
  const { config, logger: log } = shared;
  const declared = functions.service
    .definitions()
    .filter((def) => def.automations.length > 0)
    .map((def) => ({ functionName: def.name, automations: def.automations }));
  if (declared.length === 0) return { name: 'automations' };
  const runner = createAutomationRunner({
    appId: config.APP_ID,
    store: createAutomationsStore(shared.db),
    functions: declared,
    invoke: (name, body) => functions.service.invokeJson(name, body),
    log: log.child({ component: 'automations' }),
    // A claimed job stays this instance's for a call's deadline and the claim grace.
    lockMs: config.FUNCTION_TIMEOUT_S * 1000 + config.AUTOMATION_CLAIM_GRACE_S * 1000,
    concurrency: config.AUTOMATION_CONCURRENCY,
    maxQueuedPerAutomation: config.AUTOMATION_MAX_QUEUED,
    maxQueuedPerSource: config.AUTOMATION_MAX_QUEUED_PER_SOURCE,
  });
  await runner.start();
  const unsubscribe = shared.events.subscribe(() => runner.nudge());
  log.info({ functions: declared.map((item) => item.functionName) }, 'automations running');
  return {
    name: 'automations',
    // Before the functions it calls, and before the database closes.
    close: async () => {
      unsubscribe();
      await runner.close();
    },
  };
}
