// All SQL of function automations: which entity events an app listens to (and the triggers that queue them
// with each write), the queue of jobs, and the scheduled runs, claimed so that one instance runs each.
import type { Database } from './database';
import { withAdvisoryLock } from './migrations';

/** AUTOMATION_LOCK_KEY serialises trigger changes of instances starting together ("QUEENAUT"). */
const AUTOMATION_LOCK_KEY = '5860666654060353876';

export interface EntitySubscription {
  entity: string;
  event: 'create' | 'update' | 'delete';
  functionName: string;
  automationName: string;
}

/** AutomationJob is one queued call of a function: an entity event or a scheduled run. */
export interface AutomationJob {
  id: string;
  function_name: string;
  automation_name: string;
  payload: Record<string, unknown>;
  attempts: number;
}

export interface ScheduleRow {
  function_name: string;
  automation_name: string;
  definition: string;
  anchor_at: Date;
  next_run_at: Date | null;
  runs: number;
  last_run_at: Date | null;
}

const TRIGGERS = [
  `CREATE OR REPLACE TRIGGER automation_created AFTER INSERT ON entity_records
     REFERENCING NEW TABLE AS created_rows FOR EACH STATEMENT EXECUTE FUNCTION automation_enqueue_created()`,
  `CREATE OR REPLACE TRIGGER automation_updated AFTER UPDATE ON entity_records
     REFERENCING OLD TABLE AS previous_rows NEW TABLE AS updated_rows
     FOR EACH STATEMENT EXECUTE FUNCTION automation_enqueue_updated()`,
  `CREATE OR REPLACE TRIGGER automation_deleted AFTER DELETE ON entity_records
     REFERENCING OLD TABLE AS deleted_rows FOR EACH STATEMENT EXECUTE FUNCTION automation_enqueue_deleted()`,
];
const DROP_TRIGGERS = ['automation_created', 'automation_updated', 'automation_deleted'].map(
  (name) => `DROP TRIGGER IF EXISTS ${name} ON entity_records`,
);

export function createAutomationsStore(db: Database) {
  return {
    /**
     * setSubscriptions replaces appId's entity subscriptions; the queueing triggers exist while any app
     * of the database has one (a database shared by several apps keeps them for all).
     */
    async setSubscriptions(appId: string, subscriptions: EntitySubscription[]): Promise<void> {
      await withAdvisoryLock(db, AUTOMATION_LOCK_KEY, async (locked) => {
        await locked.transaction(async (tx) => {
          await tx.query('DELETE FROM automation_subscriptions WHERE app_id = $1', [appId]);
          for (const item of subscriptions) {
            await tx.query(
              `INSERT INTO automation_subscriptions (app_id, entity, event, function_name, automation_name)
               VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
              [appId, item.entity, item.event, item.functionName, item.automationName],
            );
          }
          const { rows } = await tx.query<{ any: boolean }>(
            'SELECT EXISTS (SELECT 1 FROM automation_subscriptions) AS any',
          );
          for (const statement of rows[0]?.any ? TRIGGERS : DROP_TRIGGERS) await tx.query(statement);
        });
      });
    },

    /**
     * claimJobs locks up to limit due jobs of appId for lockMs (another instance skips them) and returns
     * them: scheduled runs first, then the oldest; none of the automations in `busy` (keys
     * `function\nautomation`: this runner is running one of theirs, and one automation's jobs run in order).
     */
    async claimJobs(
      appId: string,
      limit: number,
      lockMs: number,
      busy: readonly string[] = [],
    ): Promise<AutomationJob[]> {
      const { rows } = await db.query<AutomationJob & { scheduled: boolean }>(
        `UPDATE automation_jobs SET locked_until = now() + ($3::int * interval '1 millisecond'),
           attempts = attempts + 1
         WHERE id IN (
           SELECT id FROM automation_jobs
           WHERE app_id = $1 AND failed_at IS NULL AND run_after <= now()
             AND (locked_until IS NULL OR locked_until < now())
             AND NOT (function_name || E'\\n' || automation_name = ANY($4::text[]))
           ORDER BY (payload->>'type' = 'scheduled') DESC, id LIMIT $2 FOR UPDATE SKIP LOCKED)
         RETURNING id::text AS id, function_name, automation_name, payload, attempts,
           payload->>'type' = 'scheduled' AS scheduled`,
        [appId, limit, lockMs, busy],
      );
      return rows
        .sort((a, b) => Number(b.scheduled) - Number(a.scheduled) || Number(a.id) - Number(b.id))
        .map(({ scheduled: _scheduled, ...job }) => job);
    },

    /**
     * trimQueue drops the queued (not running) jobs of appId beyond perAutomation of one automation or
     * perSource of one trigger source (the entity written, or the schedule), newest first, and returns how
     * many each automation lost: a bulk write must not queue runs without bound.
     */
    async trimQueue(
      appId: string,
      perAutomation: number,
      perSource: number,
    ): Promise<Array<{ function_name: string; automation_name: string; dropped: number }>> {
      const { rows } = await db.query<{ function_name: string; automation_name: string; dropped: number }>(
        `WITH ranked AS (
           SELECT id, function_name, automation_name,
             row_number() OVER (PARTITION BY function_name, automation_name ORDER BY id) AS in_automation,
             row_number() OVER (
               PARTITION BY COALESCE('entity ' || (payload->'record'->>'entity'),
                 'schedule ' || function_name || E'\\n' || automation_name)
               ORDER BY id) AS in_source
           FROM automation_jobs
           WHERE app_id = $1 AND failed_at IS NULL AND (locked_until IS NULL OR locked_until < now())
         ), dropped AS (
           DELETE FROM automation_jobs j USING ranked r
           WHERE j.id = r.id AND (r.in_automation > $2 OR r.in_source > $3)
           RETURNING r.function_name, r.automation_name
         )
         SELECT function_name, automation_name, count(*)::int AS dropped FROM dropped GROUP BY 1, 2`,
        [appId, perAutomation, perSource],
      );
      return rows;
    },

    async completeJob(id: string): Promise<void> {
      await db.query('DELETE FROM automation_jobs WHERE id = $1', [id]);
    },

    /** retryJob makes job id due again after delayMs; giveUp marks it failed for good (kept for the operator). */
    async retryJob(id: string, delayMs: number, error: string, giveUp: boolean): Promise<void> {
      await db.query(
        `UPDATE automation_jobs SET locked_until = NULL, last_error = $2,
           run_after = now() + ($3::int * interval '1 millisecond'),
           failed_at = CASE WHEN $4::boolean THEN now() ELSE NULL END
         WHERE id = $1`,
        [id, error.slice(0, 2000), delayMs, giveUp],
      );
    },

    async countJobs(appId: string): Promise<{ pending: number; failed: number }> {
      const { rows } = await db.query<{ pending: string; failed: string }>(
        `SELECT count(*) FILTER (WHERE failed_at IS NULL) AS pending,
                count(*) FILTER (WHERE failed_at IS NOT NULL) AS failed
         FROM automation_jobs WHERE app_id = $1`,
        [appId],
      );
      return { pending: Number(rows[0]?.pending ?? 0), failed: Number(rows[0]?.failed ?? 0) };
    },

    /**
     * setSchedules keeps a row per scheduled automation of appId: a new or changed definition starts afresh
     * (no runs, next time unset), a removed one is dropped. Returns the rows.
     */
    async setSchedules(
      appId: string,
      schedules: Array<{ functionName: string; automationName: string; definition: string }>,
    ): Promise<ScheduleRow[]> {
      return db.transaction(async (tx) => {
        const keep = schedules.map((item) => `${item.functionName}\n${item.automationName}`);
        await tx.query(
          `DELETE FROM automation_schedules WHERE app_id = $1
             AND NOT (function_name || E'\\n' || automation_name = ANY($2::text[]))`,
          [appId, keep],
        );
        for (const item of schedules) {
          await tx.query(
            `INSERT INTO automation_schedules (app_id, function_name, automation_name, definition)
             VALUES ($1, $2, $3, $4)
             ON CONFLICT (app_id, function_name, automation_name) DO UPDATE
               SET definition = EXCLUDED.definition, anchor_at = now(), next_run_at = NULL, runs = 0,
                   last_run_at = NULL
               WHERE automation_schedules.definition <> EXCLUDED.definition`,
            [appId, item.functionName, item.automationName, item.definition],
          );
        }
        const { rows } = await tx.query<ScheduleRow>(
          `SELECT function_name, automation_name, definition, anchor_at, next_run_at, runs, last_run_at
           FROM automation_schedules WHERE app_id = $1`,
          [appId],
        );
        return rows;
      });
    },

    /** setNextRun sets a schedule's first time, unless another instance already did. */
    async setNextRun(appId: string, functionName: string, automationName: string, next: Date): Promise<void> {
      await db.query(
        `UPDATE automation_schedules SET next_run_at = $4
         WHERE app_id = $1 AND function_name = $2 AND automation_name = $3 AND next_run_at IS NULL AND runs = 0`,
        [appId, functionName, automationName, next],
      );
    },

    async dueSchedules(appId: string): Promise<ScheduleRow[]> {
      const { rows } = await db.query<ScheduleRow>(
        `SELECT function_name, automation_name, definition, anchor_at, next_run_at, runs, last_run_at
         FROM automation_schedules WHERE app_id = $1 AND next_run_at <= now()`,
        [appId],
      );
      return rows;
    },

    /**
     * takeScheduledRun moves a due schedule from `due` to `next` and queues its job, in one transaction; it
     * returns false when another instance took this run first (the row no longer says `due`).
     */
    async takeScheduledRun(
      appId: string,
      row: Pick<ScheduleRow, 'function_name' | 'automation_name'>,
      due: Date,
      next: Date | null,
      payload: Record<string, unknown>,
    ): Promise<boolean> {
      return db.transaction(async (tx) => {
        const { rows } = await tx.query(
          `UPDATE automation_schedules SET next_run_at = $5, runs = runs + 1, last_run_at = now()
           WHERE app_id = $1 AND function_name = $2 AND automation_name = $3 AND next_run_at = $4
           RETURNING runs`,
          [appId, row.function_name, row.automation_name, due, next],
        );
        if (rows.length === 0) return false;
        await tx.query(
          `INSERT INTO automation_jobs (app_id, function_name, automation_name, payload)
           VALUES ($1, $2, $3, $4)`,
          [appId, row.function_name, row.automation_name, JSON.stringify(payload)],
        );
        return true;
      });
    },
  };
}

export type AutomationsStore = ReturnType<typeof createAutomationsStore>;
