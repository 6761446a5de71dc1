// The Functions page's SQL on PGlite and (with DATABASE_URL) PostgreSQL: each function's calls, errors,
// p50/p95 duration and last status over the window (older calls and other apps left out), and its
// automation runs, newest first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_ENGINES, type TestDatabase } from '../test-support/open-test-database';
import { createFunctionStatsStore } from './function-stats-store';

describe.each(TEST_ENGINES)('functions console SQL on %s', (name) => {
  let engine: TestDatabase;
  const now = Date.now();
  const at = (secondsAgo: number) => new Date(now - secondsAgo * 1000).toISOString();

  /** log stores one call of fn; the id order follows the insert order. */
  const log = (app: string, fn: string, status: number, ms: number, loggedAt: string, trigger = 'http') =>
    engine.db.query(
      `INSERT INTO app_function_logs
         (app_id, function_name, request_id, trigger, status, duration_ms, output, output_dropped, logged_at)
       VALUES ($1, $2, NULL, $3, $4, $5, '[]'::jsonb, 0, $6)`,
      [app, fn, trigger, status, ms, loggedAt],
    );

  beforeAll(async () => {
    engine = await openTestDatabase({ engine: name, name: 'function_stats' });
    await engine.db.query('INSERT INTO apps (id) VALUES ($1), ($2)', ['a1', 'a2']);
    // hello: durations 10, 20, …, 100 ms in the window, two of them errors, the newest a 500.
    for (let i = 1; i <= 10; i += 1) {
      await log(
        'a1',
        'hello',
        i === 4 || i === 10 ? 500 : 200,
        i * 10,
        at(100 - i),
        i % 2 ? 'automation' : 'http',
      );
    }
    // Left out of the window, and another app's call of the same name.
    await log('a1', 'hello', 200, 100_000, at(3 * 86_400));
    await log('a2', 'hello', 200, 100_000, at(10));
    await log('a1', 'other', 201, 7, at(5));
  });
  afterAll(async () => engine.close());

  it('sums calls, errors, p50/p95 and the last status per function over the window', async () => {
    const stats = await createFunctionStatsStore(engine.db).stats('a1', at(86_400));
    const byName = Object.fromEntries(stats.map((row) => [row.function_name, row]));
    expect(Object.keys(byName).sort()).toEqual(['hello', 'other']);
    expect(byName.hello).toMatchObject({ calls: 10, errors: 2, last_status: 500, last_at: at(90) });
    // percentile_cont interpolates: p50 of 10…100 is 55, p95 is 95.5.
    expect(byName.hello?.p50_ms).toBeCloseTo(55);
    expect(byName.hello?.p95_ms).toBeCloseTo(95.5);
    expect(byName.other).toMatchObject({ calls: 1, errors: 0, p50_ms: 7, p95_ms: 7, last_status: 201 });
  });

  it("lists a function's automation runs newest first, up to the limit", async () => {
    const runs = await createFunctionStatsStore(engine.db).automationRuns('a1', 'hello', 3);
    expect(runs).toEqual([
      { function_name: 'hello', status: 200, duration_ms: 90, logged_at: at(91) },
      { function_name: 'hello', status: 200, duration_ms: 70, logged_at: at(93) },
      { function_name: 'hello', status: 200, duration_ms: 50, logged_at: at(95) },
    ]);
  });
});
