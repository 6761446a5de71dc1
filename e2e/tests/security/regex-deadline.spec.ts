import { expect, test } from '../../support/test';
import { seedLongTodos, startEntitiesServer } from '../../support/entities-helpers';
import type { RunningServer } from '../../support/server-process';

// A `$regex` scan stops at ENTITY_REGEX_DEADLINE_MS (issue 18, item 5) with a 400 that says why, and
// nothing restarts: on PGlite, the engine's own deadline (DATABASE_QUERY_TIMEOUT_MS) can only stop a
// statement by restarting the engine, failing every other caller's reads for a second. And one caller's
// regex requests run one at a time, so parallel ones cannot queue scan after scan ahead of everyone else.

const todos = '/api/apps/queen-solana/entities/Todo';
const ROWS = 200;
const REGEX_DEADLINE_MS = 150;

let heavyCount = 0;
/** heavyPath lists with 4 case-insensitive patterns that read every description (a fresh one each time). */
function heavyPath(): string {
  heavyCount += 1;
  const patterns = ['(foo|bar|baz)[0-9]+q', 'x[0-9]+yz', '(mo|no|po)[a-z]+q', 'q[0-9]+w'];
  const q = {
    $or: patterns.map((pattern) => ({ description: { $regex: pattern, $options: 'i' } })),
    title: { $ne: `heavy-${heavyCount}-${Date.now()}` },
  };
  return `${todos}?q=${encodeURIComponent(JSON.stringify(q))}&limit=5`;
}

async function get(server: RunningServer, path: string) {
  const response = await fetch(`${server.url}${path}`);
  return { status: response.status, body: (await response.json()) as { message?: string } };
}

let server: RunningServer;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startEntitiesServer({
    // Far apart, so that only the regex deadline can stop these scans.
    env: { ENTITY_REGEX_DEADLINE_MS: String(REGEX_DEADLINE_MS), DATABASE_QUERY_TIMEOUT_MS: '60000' },
  });
  await seedLongTodos(server, ROWS);
});

test.afterAll(async () => {
  await server?.stop();
});

test('a scan past the deadline answers 400 naming the setting; the next read answers at once', async () => {
  const heavy = await get(server, heavyPath());
  expect(heavy.status, JSON.stringify(heavy.body)).toBe(400);
  expect(heavy.body.message).toContain('ENTITY_REGEX_DEADLINE_MS');
  const started = Date.now();
  const next = await get(server, `${todos}?q=${encodeURIComponent(JSON.stringify({ title: 'seed 1' }))}`);
  expect(next.status).toBe(200);
  expect(next.body).toHaveLength(1);
  expect(server.logs()).not.toContain('outlived its deadline');
  expect(Date.now() - started).toBeLessThan(5_000);
});

test('parallel scans of one caller are each stopped at their own deadline, and none restarts the engine', async () => {
  const answers = await Promise.all(Array.from({ length: 4 }, () => get(server, heavyPath())));
  expect(answers.map((answer) => answer.status)).toEqual([400, 400, 400, 400]);
  expect(server.logs()).not.toContain('outlived its deadline');
  expect(server.logs()).not.toContain('restarting');
});
