import { expect, test } from '../../support/test';
import { AUTH_ENV, PASSWORD, uniqueEmail } from '../../support/auth-helpers';
import { withServerDatabase } from '../../support/postgres';
import { removeServerData, startServer, type RunningServer } from '../../support/server-process';

// kill -9 in the middle of a stream of writes: every write the server acknowledged (2xx) must be there
// after a restart on the same data. A 2xx from auth/register means the user row was committed.
// Runs on PGlite in `api` and on PostgreSQL in `api-postgres`.
const appId = 'queen-solana';
const WRITERS = 4;

let first: RunningServer;

test.afterAll(async () => {
  if (first) await removeServerData(first);
});

async function register(server: RunningServer, email: string): Promise<boolean> {
  try {
    const response = await fetch(`${server.url}/api/apps/${appId}/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    return response.ok;
  } catch {
    return false; // the connection died with the server: not acknowledged
  }
}

test('every acknowledged create survives kill -9 and a restart on the same data', async () => {
  test.setTimeout(120_000);
  first = await startServer({ env: AUTH_ENV, keepData: true });
  const acknowledged: string[] = [];
  let stopping = false;
  const writers = Array.from({ length: WRITERS }, async () => {
    while (!stopping) {
      const email = uniqueEmail('crash');
      if (await register(first, email)) acknowledged.push(email);
    }
  });
  // Kill while requests are in flight, once a fair number have been acknowledged.
  await expect.poll(() => acknowledged.length, { timeout: 30_000, intervals: [50] }).toBeGreaterThan(25);
  expect(await first.kill('SIGKILL')).toBeNull();
  stopping = true;
  await Promise.all(writers);
  const acknowledgedBeforeKill = [...acknowledged];

  const restarted = await startServer({
    env: AUTH_ENV,
    dataDir: first.dataDir,
    ...(first.databaseUrl ? { databaseUrl: first.databaseUrl } : {}),
  });
  // The restarted server works on the recovered data.
  expect(await register(restarted, uniqueEmail('after-crash'))).toBe(true);
  expect(await restarted.stop()).toBe(0);

  const stored = await withServerDatabase(first, (query) =>
    query<{ email: string }>('SELECT email FROM users WHERE email = ANY($1)', [acknowledgedBeforeKill]),
  );
  const storedEmails = new Set(stored.map((row) => row.email));
  const missing = acknowledgedBeforeKill.filter((email) => !storedEmails.has(email));
  expect(missing, `${missing.length} of ${acknowledgedBeforeKill.length} acknowledged creates lost`).toEqual(
    [],
  );
});
