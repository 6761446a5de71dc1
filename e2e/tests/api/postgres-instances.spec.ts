import { expect, test } from '../../support/test';
import pg from 'pg';
import { AUTH_ENV } from '../../support/auth-helpers';
import { createDatabase, dropDatabase, withServerDatabase } from '../../support/postgres';
import { currentDatabaseMode, startServer } from '../../support/server-process';

// DATABASE_URL: several instances on one PostgreSQL database. Runs in the api-postgres project.
test.beforeAll(() => {
  test.skip(currentDatabaseMode() !== 'postgres', 'needs the api-postgres project (DATABASE_URL)');
});

/** withPassword adds a password to a URL: trust auth ignores it, so it only shows whether it leaks. */
const withPassword = (url: string, password: string) => {
  const parsed = new URL(url);
  parsed.password = password;
  return parsed.toString();
};

test('three instances starting at once on a fresh database migrate it once, and all serve', async () => {
  test.setTimeout(90_000);
  const database = await createDatabase({ migrated: false });
  const password = 'pg-password-must-not-leak';
  const databaseUrl = withPassword(database.url, password);
  try {
    const servers = await Promise.all([1, 2, 3].map(() => startServer({ env: AUTH_ENV, databaseUrl })));
    try {
      const url = new URL(database.url);
      for (const server of servers) {
        const logs = server.logs();
        expect(logs).toContain(`PostgreSQL ${url.host}/${database.name}`);
        expect(logs).not.toContain(password);
        expect(logs).not.toContain('pglite');
        const settings = await fetch(`${server.url}/api/apps/public/prod/public-settings/by-id/queen-solana`);
        expect(settings.status).toBe(200);
      }
      // Exactly one instance logged applying migrations: the others found them applied under the lock.
      expect(servers.filter((server) => server.logs().includes('applied database migrations'))).toHaveLength(
        1,
      );
      const counts = await withServerDatabase({ dataDir: '', databaseUrl }, (query) =>
        query<{ version: number; n: string }>(
          'SELECT version, count(*) AS n FROM schema_migrations GROUP BY version ORDER BY version',
        ),
      );
      expect(counts.length).toBeGreaterThan(0);
      expect(counts.every((row) => Number(row.n) === 1)).toBe(true);
    } finally {
      for (const server of servers) expect(await server.stop()).toBe(0);
    }
    // Shutdown closed every pool: no connection of the server is left on the database.
    const left = await withServerDatabase({ dataDir: '', databaseUrl: database.url }, (query) =>
      query<{ n: string }>(
        "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1 AND application_name = 'queen-server'",
        [database.name],
      ),
    );
    expect(Number(left[0]?.n)).toBe(0);
  } finally {
    await dropDatabase(database.name);
  }
});

test('an instance waits for the migration lock another process holds, then starts', async () => {
  // The key the server uses (server/src/store/migrations.ts MIGRATION_LOCK_KEY, "QUEENMIG").
  const key = '5860666654061316423';
  const database = await createDatabase({ migrated: false });
  const holder = new pg.Client({ connectionString: database.url });
  await holder.connect();
  try {
    await holder.query('SELECT pg_advisory_lock($1::bigint)', [key]);
    let ready = false;
    const starting = startServer({ env: AUTH_ENV, databaseUrl: database.url }).then((server) => {
      ready = true;
      return server;
    });
    const waiting = async () => {
      const { rows } = await holder.query<{ n: string }>(
        `SELECT count(*) AS n FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
          WHERE l.locktype = 'advisory' AND NOT l.granted AND a.application_name = 'queen-server'
            AND a.datname = $1`,
        [database.name],
      );
      return Number(rows[0]?.n);
    };
    await expect.poll(waiting, { timeout: 15_000 }).toBe(1);
    await new Promise((wait) => setTimeout(wait, 500));
    expect(ready).toBe(false);
    await holder.query('SELECT pg_advisory_unlock($1::bigint)', [key]);
    const server = await starting;
    expect(server.logs()).toContain('applied database migrations');
    expect(await server.stop()).toBe(0);
  } finally {
    await holder.end();
    await dropDatabase(database.name);
  }
});

test('an unreachable DATABASE_URL stops start-up with a message naming the server, not the password', async () => {
  const dead = 'postgres://someone:hunter2-secret@127.0.0.1:1/queen';
  const failed = await startServer({ env: AUTH_ENV, databaseUrl: dead }).then(
    () => null,
    (error: Error) => error.message,
  );
  expect(failed).toContain('Cannot connect to PostgreSQL 127.0.0.1:1/queen (DATABASE_URL)');
  expect(failed).not.toContain('hunter2-secret');
});

test('a user written through one instance is read through another, and a session ended there too', async () => {
  // One JWT secret, as instances behind a load balancer share it.
  const env = { ...AUTH_ENV, JWT_SECRET: 'e2e-jwt-secret-0123456789abcdefghijklmnopqrstuvwxyz' };
  const a = await startServer({ env });
  const b = await startServer({ env, databaseUrl: a.databaseUrl });
  try {
    const email = `shared-${Date.now()}@example.test`;
    const created = await fetch(`${a.url}/api/apps/queen-solana/admin/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${AUTH_ENV.SERVICE_TOKEN}` },
      body: JSON.stringify({ email, password: 'correct horse battery', role: 'user' }),
    });
    expect(created.status).toBe(201);
    const login = await fetch(`${b.url}/api/apps/queen-solana/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'correct horse battery' }),
    });
    expect(login.status).toBe(200);

    // A sign-in session started on b and ended on a is refused on b at once (no per-instance memory).
    const started = await fetch(`${b.url}/api/apps/queen-solana/auth/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'correct horse battery' }),
    });
    const session = ((await started.json()) as { access_token: string }).access_token;
    const me = async (url: string) =>
      (
        await fetch(`${url}/api/apps/queen-solana/entities/User/me`, {
          headers: { authorization: `Bearer ${session}` },
        })
      ).status;
    expect(await me(b.url)).toBe(200);
    const ended = await fetch(`${a.url}/api/apps/queen-solana/auth/sessions/current`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${session}` },
    });
    expect(ended.status).toBe(200);
    expect(await me(b.url)).toBe(401);
  } finally {
    await b.stop();
    await a.stop();
  }
});

test('pg is reachable the way the harness uses it', async () => {
  // Guards the harness itself: DATABASE_URL must allow CREATE DATABASE (trust auth as postgres or root).
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ ok: boolean }>(
      'SELECT rolcreatedb OR rolsuper AS ok FROM pg_roles WHERE rolname = current_user',
    );
    expect(rows[0]?.ok).toBe(true);
  } finally {
    await client.end();
  }
});
