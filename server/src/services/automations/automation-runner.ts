// Runs the automations functions declare: entity events (queued by the database with each write) and
// schedules (one instance takes each due run), by calling the function as the service role. A job is
// retried with backoff until it succeeds or runs out of attempts: at-least-once. A few jobs run at once, one
// per automation (its jobs stay in order); due schedules are taken between jobs and their runs go first, so
// a burst of entity events never starves them; the queue is trimmed to its caps, the drops logged.
import { toRecord } from '../entities/record-presenter';
import type { AutomationJob, AutomationsStore, EntitySubscription } from '../../store/automations-store';
import type { EntityRecordRow } from '../../store/entity-records-store';
import {
  isEntityEvent,
  isScheduled,
  type FunctionAutomations,
  type ScheduledAutomation,
} from './automation-config';
import { nextRunTime, ScheduleError } from './schedule-times';

/** InvokeResult is how a function call went: ok for a 2xx answer, else a detail for the log and retry. */
export interface InvokeResult {
  ok: boolean;
  status: number;
  detail?: string;
}

/** AutomationInvoker calls functionName with a JSON body as the service role. */
export type AutomationInvoker = (functionName: string, body: unknown) => Promise<InvokeResult>;

export interface AutomationLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface AutomationRunnerOptions {
  appId: string;
  store: AutomationsStore;
  functions: FunctionAutomations[];
  invoke: AutomationInvoker;
  log: AutomationLog;
  /** pollMs is how often due jobs and schedules are looked for (writes on this instance nudge sooner). */
  pollMs?: number;
  /** lockMs is how long a claimed job stays another instance's; longer than a function may run. */
  lockMs?: number;
  maxAttempts?: number;
  /** concurrency is how many jobs run at once (of different automations). */
  concurrency?: number;
  /** maxQueuedPerAutomation caps the queued runs of one automation (AUTOMATION_MAX_QUEUED). */
  maxQueuedPerAutomation?: number;
  /** maxQueuedPerSource caps the queued runs one trigger source (an entity, a schedule) feeds. */
  maxQueuedPerSource?: number;
}

/** AUTOMATION_DEFAULTS are the runner's bounds when not given (the server's settings say the same). */
export const AUTOMATION_DEFAULTS = { concurrency: 4, maxQueuedPerAutomation: 500, maxQueuedPerSource: 1000 };

const keyOf = (job: Pick<AutomationJob, 'function_name' | 'automation_name'>) =>
  `${job.function_name}\n${job.automation_name}`;

/** backoffMs is the wait before retry `attempt` (1-based): 1 s, 2 s, 4 s… up to 10 minutes. */
export function backoffMs(attempt: number): number {
  return Math.min(1000 * 2 ** Math.max(0, attempt - 1), 10 * 60_000);
}

function rowOf(value: unknown): EntityRecordRow | null {
  if (!value || typeof value !== 'object') return null;
  const row = value as EntityRecordRow;
  return typeof row.id === 'string' && row.data ? row : null;
}

/**
 * bodyOf is what a job's function receives: for an entity event the shape Base44 functions read
 * (`{event: {type, entity_name, entity_id}, data, old_data}`), for a schedule its `function_args`.
 */
export function bodyOf(job: AutomationJob): unknown {
  const payload = job.payload;
  const record = rowOf(payload.record);
  if (!record) return payload.function_args ?? {};
  const previous = rowOf(payload.old_record);
  return {
    event: {
      type: payload.type,
      entity_name: (payload.record as { entity: string }).entity,
      entity_id: record.id,
    },
    data: toRecord(record),
    old_data: previous ? toRecord(previous) : null,
  };
}

/** AutomationRunner runs the automations functions declare (entity events and schedules) for one app. */
export interface AutomationRunner {
  /** start registers subscriptions and schedules in the database and starts polling. */
  start(): Promise<void>;
  /** nudge looks for due jobs now (after a write on this instance). */
  nudge(): void;
  /** close stops polling and waits for the job in hand. */
  close(): Promise<void>;
}

/** createAutomationRunner returns the runner of options.functions' automations for options.appId. */
export function createAutomationRunner(options: AutomationRunnerOptions): AutomationRunner {
  const { appId, store, log } = options;
  const pollMs = options.pollMs ?? 1000;
  const lockMs = options.lockMs ?? 5 * 60_000;
  const maxAttempts = options.maxAttempts ?? 8;
  const concurrency = options.concurrency ?? AUTOMATION_DEFAULTS.concurrency;
  const perAutomation = options.maxQueuedPerAutomation ?? AUTOMATION_DEFAULTS.maxQueuedPerAutomation;
  const perSource = options.maxQueuedPerSource ?? AUTOMATION_DEFAULTS.maxQueuedPerSource;
  /** inHand are the automations (keyOf) with a job running here. */
  const inHand = new Set<string>();
  let claiming: Promise<unknown> = Promise.resolve();
  let lastChores = 0;
  const scheduled = new Map<string, ScheduledAutomation>();
  let timer: NodeJS.Timeout | undefined;
  /** workers are the loops running jobs now (at most concurrency). */
  const workers = new Set<Promise<void>>();
  let closed = false;

  async function runJob(job: AutomationJob): Promise<void> {
    const started = Date.now();
    let result: InvokeResult;
    try {
      result = await options.invoke(job.function_name, bodyOf(job));
    } catch (error) {
      result = { ok: false, status: 0, detail: (error as Error).message };
    }
    const fields = {
      job: job.id,
      function: job.function_name,
      automation: job.automation_name,
      attempt: job.attempts,
      status: result.status,
      ms: Date.now() - started,
    };
    if (result.ok) {
      await store.completeJob(job.id);
      log.info(fields, 'automation ran');
      return;
    }
    const giveUp = job.attempts >= maxAttempts;
    await store.retryJob(job.id, backoffMs(job.attempts), result.detail ?? `HTTP ${result.status}`, giveUp);
    const message = giveUp ? 'automation failed for good' : 'automation failed: retrying';
    (giveUp ? log.error : log.warn).call(log, { ...fields, detail: result.detail }, message);
  }

  async function takeDueSchedules(): Promise<void> {
    for (const row of await store.dueSchedules(appId)) {
      const automation = scheduled.get(`${row.function_name}\n${row.automation_name}`);
      if (!automation || !row.next_run_at) continue;
      // A run missed while no server ran is taken once, and the next time counted from now.
      const after = new Date(Math.max(Date.now(), row.next_run_at.getTime()));
      const next = nextRunTime(automation, after, row.runs + 1, row.anchor_at);
      const payload = { type: 'scheduled', function_args: automation.function_args ?? {} };
      if (await store.takeScheduledRun(appId, row, row.next_run_at, next, payload)) {
        log.info(
          { function: row.function_name, automation: row.automation_name, next },
          'scheduled run queued',
        );
      }
    }
  }

  /** trimQueue applies the queue caps, logging what each automation lost. */
  async function trimQueue(): Promise<void> {
    for (const row of await store.trimQueue(appId, perAutomation, perSource)) {
      log.warn(
        {
          function: row.function_name,
          automation: row.automation_name,
          dropped: row.dropped,
          maxQueued: perAutomation,
          maxQueuedPerSource: perSource,
        },
        'automation runs dropped: too many queued',
      );
    }
  }

  /** chores trims the queue and takes due schedules, at most once per pollMs (between jobs too). */
  async function chores(force = false): Promise<void> {
    if (!force && Date.now() - lastChores < pollMs) return;
    lastChores = Date.now();
    await trimQueue();
    await takeDueSchedules();
  }

  /** claimNext claims one job of an automation not running here; claims are made one at a time. */
  function claimNext(): Promise<AutomationJob | undefined> {
    const claimed = claiming.then(async () => {
      const [job] = await store.claimJobs(appId, 1, lockMs, [...inHand]);
      if (job) inHand.add(keyOf(job));
      return job;
    });
    claiming = claimed.catch(() => undefined);
    return claimed;
  }

  /**
   * worker runs jobs until none is left for it. One job claimed at a time, just before it runs: a claim
   * lasts lockMs, and jobs claimed together but run one after another would outlive it, letting another
   * instance run the same job at once. Each job found starts another worker, up to concurrency.
   */
  async function worker(): Promise<void> {
    while (!closed) {
      await chores();
      const job = await claimNext();
      if (!job) return;
      if (workers.size < concurrency) startWorker();
      try {
        await runJob(job);
      } finally {
        inHand.delete(keyOf(job));
      }
    }
  }

  function startWorker(): void {
    const running: Promise<void> = worker()
      .catch((error: unknown) => log.error({ err: error }, 'automations poll failed'))
      .finally(() => workers.delete(running));
    workers.add(running);
  }

  /** tick looks for work now: a worker is started unless every one is busy (they look on their own). */
  function tick(): void {
    if (closed || workers.size >= concurrency) return;
    startWorker();
  }

  return {
    /** start registers subscriptions and schedules in the database and starts polling. */
    async start(): Promise<void> {
      const subscriptions: EntitySubscription[] = [];
      const schedules: Array<{ functionName: string; automationName: string; definition: string }> = [];
      for (const fn of options.functions) {
        for (const automation of fn.automations) {
          if (!automation.is_active) continue;
          if (isEntityEvent(automation)) {
            for (const event of new Set(automation.event_types)) {
              subscriptions.push({
                entity: automation.entity_name,
                event,
                functionName: fn.functionName,
                automationName: automation.name,
              });
            }
          } else if (isScheduled(automation)) {
            scheduled.set(`${fn.functionName}\n${automation.name}`, automation);
            schedules.push({
              functionName: fn.functionName,
              automationName: automation.name,
              definition: JSON.stringify(automation),
            });
          } else {
            log.warn(
              { function: fn.functionName, automation: automation.name },
              `connector automation "${automation.name}" of function ${fn.functionName} is not supported yet`,
            );
          }
        }
      }
      await store.setSubscriptions(appId, subscriptions);
      for (const row of await store.setSchedules(appId, schedules)) {
        const automation = scheduled.get(`${row.function_name}\n${row.automation_name}`);
        if (!automation || row.next_run_at || row.runs > 0) continue;
        try {
          const first = nextRunTime(automation, new Date(), 0, row.anchor_at);
          if (first) await store.setNextRun(appId, row.function_name, row.automation_name, first);
        } catch (error) {
          if (!(error instanceof ScheduleError)) throw error;
          log.error({ function: row.function_name, automation: row.automation_name }, error.message);
        }
      }
      timer = setInterval(tick, pollMs);
      timer.unref();
      tick();
    },
    /** nudge looks for due jobs now (after a write on this instance). */
    nudge: tick,
    /** close stops polling and waits for the job in hand. */
    async close(): Promise<void> {
      closed = true;
      if (timer) clearInterval(timer);
      await Promise.all([...workers]);
    },
  };
}
