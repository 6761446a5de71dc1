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
