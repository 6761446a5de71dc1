// Automations on a real database (PGlite, and PostgreSQL when reachable): entity events queued by the
// database with the write (so a write committed before a crash is still delivered, a rolled-back one never),
// retried until they succeed, and a due scheduled run taken by exactly one of two runners.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAutomationsStore } from '../../store/automations-store';
import type { Database } from '../../store/database';
import { createEntityRecordsStore } from '../../store/entity-records-store';
import { openTestDatabase, TEST_ENGINES, type TestDatabase } from '../../test-support/open-test-database';
import { AutomationsSchema, type FunctionAutomations } from './automation-config';
import { createAutomationRunner, type AutomationInvoker, type InvokeResult } from './automation-runner';

const APP = 'automations-app';
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const OK: InvokeResult = { ok: true, status: 200 };

const onTodo: FunctionAutomations = {
  functionName: 'onTodo',
  automations: AutomationsSchema.parse([
    {
      name: 'todo changes',
      type: 'entity',
      entity_name: 'Todo',
      event_types: ['create', 'update', 'delete'],
    },
  ]),
};

/** recorder is an invoker that remembers each call and answers with the next scripted result. */
function recorder(results: InvokeResult[] = []) {
  const calls: Array<{ name: string; body: Record<string, unknown> }> = [];
  const invoke: AutomationInvoker = async (name, body) => {
    calls.push({ name, body: body as Record<string, unknown> });
    return results.shift() ?? OK;
  };
  return { calls, invoke };
}

async function until(check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((wait) => setTimeout(wait, 20));
  }
}

function behaves(open: () => Promise<Database | undefined>, why: () => string) {
  let db: Database | undefined;
  beforeAll(async () => {
    db = await open();
    if (!db) return;
    await db.query('INSERT INTO apps (id) VALUES ($1) ON CONFLICT DO NOTHING', [APP]);
  }, 60_000);

  const ready = (context: { skip: (note: string) => void }): Database => {
    if (!db) context.skip(why());
    return db as Database;
  };
  const runner = (on: Database, invoke: AutomationInvoker, functions = [onTodo]) =>
    createAutomationRunner({
      appId: APP,
      store: createAutomationsStore(on),
      functions,
      invoke,
      log: quiet,
      pollMs: 50,
    });

  it('delivers create, update and delete of a record in order, in the Base44 shape', async (context) => {
    const on = ready(context);
    const records = createEntityRecordsStore(on);
    const { calls, invoke } = recorder();
    const automations = runner(on, invoke);
    await automations.start();
    const [row] = await records.insertMany(APP, 'Todo', [
      { id: 'todo-1', data: { title: 'first' }, created_by: 'ann@example.com', created_by_id: 'u1' },
    ]);
    const selection = { appId: APP, entity: 'Todo', rule: true } as const;
    await records.updateOne(selection, 'todo-1', (current) => ({ ...current.data, title: 'second' }));
    await records.deleteOne(selection, 'todo-1');
    await records.insertMany(APP, 'Note', [{ id: 'n1', data: {}, created_by: null, created_by_id: null }]);
    automations.nudge();
    await until(() => calls.length === 3);
    await automations.close();
    expect(calls.map((call) => call.name)).toEqual(['onTodo', 'onTodo', 'onTodo']);
    expect(calls[0]?.body).toEqual({
      event: { type: 'create', entity_name: 'Todo', entity_id: 'todo-1' },
      data: expect.objectContaining({ id: 'todo-1', title: 'first', created_by: 'ann@example.com' }),
      old_data: null,
    });
    expect(calls[0]?.body.data).toMatchObject({ created_date: row?.created_date && expect.any(String) });
    expect(calls[1]?.body).toMatchObject({
      event: { type: 'update' },
      data: { title: 'second' },
      old_data: { title: 'first' },
    });
    expect(calls[2]?.body).toMatchObject({ event: { type: 'delete', entity_id: 'todo-1' } });
    expect(await createAutomationsStore(on).countJobs(APP)).toEqual({ pending: 0, failed: 0 });
  });

  it('keeps a committed write’s job until a runner delivers it, and none for a rolled-back one', async (context) => {
    const on = ready(context);
    const { calls, invoke } = recorder();
    await runner(on, invoke).close(); // no runner polling: as if the server died after the write
    await createAutomationsStore(on).setSubscriptions(APP, [
      { entity: 'Todo', event: 'create', functionName: 'onTodo', automationName: 'todo changes' },
    ]);
    const records = createEntityRecordsStore(on);
    await records.insertMany(APP, 'Todo', [
      { id: 'todo-2', data: {}, created_by: null, created_by_id: null },
    ]);
    await on
      .transaction(async (tx) => {
        await tx.query(
          `INSERT INTO entity_records (app_id, entity, id, data) VALUES ($1, 'Todo', 'todo-3', '{}')`,
          [APP],
        );
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect((await createAutomationsStore(on).countJobs(APP)).pending).toBe(1);
    const restarted = runner(on, invoke);
    await restarted.start();
    await until(() => calls.length === 1);
    await restarted.close();
    expect(calls[0]?.body).toMatchObject({ event: { entity_id: 'todo-2' } });
  });

  it('retries a failing call, and gives up after its attempts', async (context) => {
    const on = ready(context);
    const { calls, invoke } = recorder([{ ok: false, status: 502, detail: 'crashed' }]);
    const automations = runner(on, invoke);
    await automations.start();
    const records = createEntityRecordsStore(on);
    await records.insertMany(APP, 'Todo', [
      { id: 'todo-4', data: {}, created_by: null, created_by_id: null },
    ]);
    automations.nudge();
    // The first try fails; the retry comes a second later and succeeds.
    await until(() => calls.length === 2, 15_000);
    await automations.close();
    expect(await createAutomationsStore(on).countJobs(APP)).toEqual({ pending: 0, failed: 0 });

    const failing: AutomationInvoker = async () => ({ ok: false, status: 500, detail: 'always' });
    const hopeless = createAutomationRunner({
      appId: APP,
      store: createAutomationsStore(on),
      functions: [onTodo],
      invoke: failing,
      log: quiet,
      pollMs: 50,
      maxAttempts: 1,
    });
    await hopeless.start();
    await records.insertMany(APP, 'Todo', [
      { id: 'todo-5', data: {}, created_by: null, created_by_id: null },
    ]);
    hopeless.nudge();
    await until(async () => (await createAutomationsStore(on).countJobs(APP)).failed === 1);
    await hopeless.close();
  });

  it('queues nothing once no automation listens (the triggers are gone)', async (context) => {
    const on = ready(context);
    await createAutomationsStore(on).setSubscriptions(APP, []);
    await createEntityRecordsStore(on).insertMany(APP, 'Todo', [
      { id: 'todo-6', data: {}, created_by: null, created_by_id: null },
    ]);
    const { rows } = await on.query<{ n: string }>(
      "SELECT count(*) AS n FROM pg_trigger WHERE tgname LIKE 'automation_%'",
    );
    expect(Number(rows[0]?.n)).toBe(0);
    expect((await createAutomationsStore(on).countJobs(APP)).pending).toBe(0);
  });

  it('never runs a job on two runners at once: each is claimed just before it runs', async (context) => {
    const on = ready(context);
    const records = createEntityRecordsStore(on);
    const ran: string[] = [];
    // Each call outlasts half the claim: jobs claimed together would expire while waiting their turn.
    const slow: AutomationInvoker = async (_name, body) => {
      ran.push(String((body as { event: { entity_id: string } }).event.entity_id));
      await new Promise((wait) => setTimeout(wait, 500));
      return OK;
    };
    const both = [0, 1].map(() =>
      createAutomationRunner({
        appId: APP,
        store: createAutomationsStore(on),
        functions: [onTodo],
        invoke: slow,
        log: quiet,
        pollMs: 50,
        lockMs: 800,
      }),
    );
    for (const automations of both) await automations.start();
    await records.insertMany(
      APP,
      'Todo',
      ['claim-1', 'claim-2', 'claim-3', 'claim-4'].map((id) => ({
        id,
        data: {},
        created_by: null,
        created_by_id: null,
      })),
    );
    both.forEach((automations) => automations.nudge());
    await until(async () => (await createAutomationsStore(on).countJobs(APP)).pending === 0, 20_000);
    await Promise.all(both.map((automations) => automations.close()));
    expect([...ran].sort()).toEqual(['claim-1', 'claim-2', 'claim-3', 'claim-4']);
  }, 30_000);

  it('runs a job whose claimer died once its claim lapses, and not before', async (context) => {
    const on = ready(context);
    const store = createAutomationsStore(on);
    const { calls, invoke } = recorder();
    const automations = runner(on, invoke);
    await automations.start();
    await automations.close(); // subscriptions written; this runner stops before any job exists
    await createEntityRecordsStore(on).insertMany(APP, 'Todo', [
      { id: 'lapse-1', data: {}, created_by: null, created_by_id: null },
    ]);
    // A runner that died right after claiming: its claim holds the job for 1.5 s.
    const [claimed] = await store.claimJobs(APP, 1, 1_500);
    expect(claimed).toBeDefined();
    const survivor = runner(on, invoke);
    await survivor.start();
    survivor.nudge();
    await new Promise((wait) => setTimeout(wait, 500));
    expect(calls).toHaveLength(0);
    await until(async () => calls.length === 1, 10_000);
    await survivor.close();
    expect(calls[0]).toMatchObject({ name: onTodo.functionName });
  }, 20_000);

  it('caps the queued runs of an automation and of a source, dropping the newest with a logged count', async (context) => {
    const on = ready(context);
    const store = createAutomationsStore(on);
    const onTodoToo: FunctionAutomations = { ...onTodo, functionName: 'onTodoToo' };
    await store.setSubscriptions(APP, [
      { entity: 'Todo', event: 'create', functionName: 'onTodo', automationName: 'todo changes' },
      { entity: 'Todo', event: 'create', functionName: 'onTodoToo', automationName: 'todo changes' },
    ]);
    const ids = Array.from({ length: 30 }, (_, i) => `cap-${String(i).padStart(2, '0')}`);
    await createEntityRecordsStore(on).insertMany(
      APP,
      'Todo',
      ids.map((id) => ({ id, data: {}, created_by: null, created_by_id: null })),
    );
    expect((await store.countJobs(APP)).pending).toBe(60);
    const warned: object[] = [];
    const { calls, invoke } = recorder();
    const automations = createAutomationRunner({
      appId: APP,
      store,
      functions: [onTodo, onTodoToo],
      invoke,
      log: { ...quiet, warn: (details) => warned.push(details) },
      pollMs: 50,
      maxQueuedPerAutomation: 12,
      maxQueuedPerSource: 20,
    });
    await automations.start();
    await until(async () => (await store.countJobs(APP)).pending === 0);
    await automations.close();
    // 12 of each automation pass its cap; of those 24, the source (Todo) keeps the oldest 20.
    expect(calls).toHaveLength(20);
    const delivered = (name: string) =>
      calls
        .filter((call) => call.name === name)
        .map((call) => (call.body.event as { entity_id: string }).entity_id);
    expect(delivered('onTodo')).toEqual(ids.slice(0, 10));
    expect(delivered('onTodoToo')).toEqual(ids.slice(0, 10));
    expect(warned).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ function: 'onTodo', dropped: 20 }),
        expect.objectContaining({ function: 'onTodoToo', dropped: 20 }),
      ]),
    );
    await store.setSubscriptions(APP, []);
  });

  it('runs a due schedule while a burst of one automation is queued, alongside it', async (context) => {
    const on = ready(context);
    const store = createAutomationsStore(on);
    const nightly: FunctionAutomations = {
      functionName: 'nightly',
      automations: AutomationsSchema.parse([
        { name: 'soon', type: 'scheduled', schedule_mode: 'one-time', one_time_date: '2026-01-01T00:00:00Z' },
      ]),
    };
    await store.setSubscriptions(APP, [
      { entity: 'Todo', event: 'create', functionName: 'onTodo', automationName: 'todo changes' },
    ]);
    await createEntityRecordsStore(on).insertMany(
      APP,
      'Todo',
      Array.from({ length: 40 }, (_, i) => ({
        id: `burst-${i}`,
        data: {},
        created_by: null,
        created_by_id: null,
      })),
    );
    const order: string[] = [];
    let running = 0;
    let most = 0;
    const slow: AutomationInvoker = async (name) => {
      running += 1;
      most = Math.max(most, running);
      order.push(name);
      await new Promise((wait) => setTimeout(wait, 20));
      running -= 1;
      return OK;
    };
    const automations = createAutomationRunner({
      appId: APP,
      store,
      functions: [onTodo, nightly],
      invoke: slow,
      log: quiet,
      pollMs: 50,
    });
    await automations.start();
    await until(() => order.includes('nightly'));
    // Before the burst drained (it waited behind all 40 before), and while one of the burst ran.
    expect(order.filter((name) => name === 'onTodo').length).toBeLessThan(10);
    await until(async () => (await store.countJobs(APP)).pending === 0);
    await automations.close();
    expect(most).toBe(2);
    await store.setSubscriptions(APP, []);
  });

  it('runs a due scheduled run once, whichever of two runners sees it', async (context) => {
    const on = ready(context);
    const nightly: FunctionAutomations = {
      functionName: 'nightly',
      automations: AutomationsSchema.parse([
        {
          name: 'catch up',
          type: 'scheduled',
          schedule_mode: 'one-time',
          one_time_date: '2026-01-01T00:00:00Z',
          function_args: { reason: 'missed' },
        },
      ]),
    };
    const first = recorder();
    const second = recorder();
    const a = runner(on, first.invoke, [nightly]);
    const b = runner(on, second.invoke, [nightly]);
    await Promise.all([a.start(), b.start()]);
    await until(() => first.calls.length + second.calls.length >= 1);
    await new Promise((wait) => setTimeout(wait, 300)); // time for a wrong second run to show
    await Promise.all([a.close(), b.close()]);
    const calls = [...first.calls, ...second.calls];
    expect(calls).toEqual([{ name: 'nightly', body: { reason: 'missed' } }]);
  });
}

describe('automations on PGlite', () => {
  let opened: TestDatabase | undefined;
  afterAll(() => opened?.close());
  behaves(
    async () => {
      opened = await openTestDatabase({ engine: 'pglite' });
      return opened.db;
    },
    () => 'never skipped',
  );
});

describe('automations on PostgreSQL', () => {
  let opened: TestDatabase | undefined;
  afterAll(() => opened?.close());
  behaves(
    async () => {
      if (!TEST_ENGINES.includes('postgres')) return undefined;
      opened = await openTestDatabase({ engine: 'postgres', name: 'automations' });
      return opened.db;
    },
    () => 'needs DATABASE_URL (as .ci/run sets it)',
  );
});
