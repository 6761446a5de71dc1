import { expect, test } from '../../support/test';
import { serviceClient } from '../../support/auth-helpers';
import { entityOf, startEntitiesServer } from '../../support/entities-helpers';
import { currentDatabaseMode, type RunningServer } from '../../support/server-process';

// The entity read cache across instances: with READ_CACHE=on and Redis, a write through B retires A's
// cached answers; with REDIS_URL and the default (auto), the cache is off. Runs in api-postgres with REDIS_URL.
const redisUrl = process.env.REDIS_URL;
const env = {
  JWT_SECRET: 'e2e-jwt-secret-0123456789abcdefghijklmnopqrstuvwxyz',
  REDIS_URL: redisUrl ?? '',
  READ_CACHE: 'on',
};
type Row = Record<string, unknown> & { id: string };

let a: RunningServer;
let b: RunningServer;

test.beforeAll(async () => {
  test.skip(
    currentDatabaseMode() !== 'postgres' || !redisUrl,
    'needs the api-postgres project (DATABASE_URL) and REDIS_URL',
  );
  a = await startEntitiesServer({ env });
  b = await startEntitiesServer({ env, databaseUrl: a.databaseUrl });
});

test.afterAll(async () => {
  await b?.stop();
  await a?.stop();
});

const todos = (server: RunningServer) => entityOf(serviceClient(server).asServiceRole, 'Todo');

test('a write through instance B is seen by cached reads on instance A', async () => {
  expect(a.logs()).toContain('on (16 MB)');
  const made = (await todos(b).create({ title: 'before' })) as Row;
  // Read twice on A: the second answer comes from A's cache.
  for (let i = 0; i < 2; i++) expect(await todos(a).get(made.id)).toMatchObject({ title: 'before' });
  const listed = async () => ((await todos(a).filter({ id: made.id })) as Row[]).map((row) => row.title);
  expect(await listed()).toEqual(['before']);

  await todos(b).update(made.id, { title: 'after' });
  await expect
    .poll(async () => ((await todos(a).get(made.id)) as Row).title, { timeout: 2000 })
    .toBe('after');
  await expect.poll(listed, { timeout: 2000 }).toEqual(['after']);
  await todos(b).delete(made.id);
  await expect.poll(listed, { timeout: 2000 }).toEqual([]);
});

test('with REDIS_URL and the default READ_CACHE=auto the cache is off and says how to turn it on', async () => {
  const c = await startEntitiesServer({
    env: { ...env, READ_CACHE: '' },
    databaseUrl: a.databaseUrl,
  });
  try {
    expect(c.logs()).toContain('READ_CACHE=on caches with invalidation through Redis');
    const made = (await todos(b).create({ title: 'x' })) as Row;
    expect(await todos(c).get(made.id)).toMatchObject({ title: 'x' });
  } finally {
    await c.stop();
  }
});
