import { availableParallelism, loadavg } from 'node:os';
import { expect } from '@playwright/test';

/**
 * slowestAnswerDuring polls paths of the server (each must answer 200) until attack settles, and returns
 * the slowest answer in ms: attacks about time assert that it stays within a bound. A path given as a
 * function is asked anew each round (a new question each time reaches the database, not a cache).
 */
export async function slowestAnswerDuring(
  serverUrl: string,
  attack: Promise<unknown>,
  paths: readonly (string | (() => string))[] = ['/healthz'],
): Promise<number> {
  let done = false;
  const settled = attack.finally(() => (done = true));
  let slowest = 0;
  do {
    for (const entry of paths) {
      const path = typeof entry === 'function' ? entry() : entry;
      const started = performance.now();
      const response = await fetch(`${serverUrl}${path}`);
      expect(response.status, path).toBe(200);
      slowest = Math.max(slowest, performance.now() - started);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  } while (!done);
  await settled;
  return slowest;
}

/**
 * onThisMachine stretches a time bound written for a machine no busier than its core count (load average ≤
 * cores) in proportion to how much busier it is now: these machines are shared, and a bound that only a
 * quiet machine meets would fail for others' work, not ours. It still catches what the bounds are for, an
 * event loop blocked for the length of an attack (before the guards: until SIGKILL).
 */
export function onThisMachine(boundMs: number): number {
  const [lastMinute = 0] = loadavg();
  const busier = lastMinute / availableParallelism();
  return Math.round(boundMs * Math.max(1, busier));
}
