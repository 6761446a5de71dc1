import { expect, test } from '../../support/test';
import { SERVICE_TOKEN, createUser, uniqueEmail, userClient } from '../../support/auth-helpers';
import { entityOf, startEntitiesServer } from '../../support/entities-helpers';
import { subscribeAll, subscriptionReady, type RealtimeEvent } from '../../support/realtime-client';
import { currentDatabaseMode, type RunningServer } from '../../support/server-process';

// Two instances on one PostgreSQL database and one Redis: a write through B reaches the SDK subscribers
// on A that may read it, and only those (A filters the raw event for its own sockets).
// Runs in the api-postgres project when REDIS_URL is set (.ci/run sets both).
const redisUrl = process.env.REDIS_URL;
const env = { JWT_SECRET: 'e2e-jwt-secret-0123456789abcdefghijklmnopqrstuvwxyz', REDIS_URL: redisUrl ?? '' };
type Client = ReturnType<typeof userClient>;
type Row = Record<string, unknown> & { id: string };

let a: RunningServer;
let b: RunningServer;
const clients: Client[] = [];

test.beforeAll(async () => {
  test.skip(
    currentDatabaseMode() !== 'postgres' || !redisUrl,
    'needs the api-postgres project (DATABASE_URL) and REDIS_URL',
  );
  a = await startEntitiesServer({ env });
  b = await startEntitiesServer({ env, databaseUrl: a.databaseUrl });
});

test.afterAll(async () => {
  for (const made of clients) made.cleanup();
  await b?.stop();
  await a?.stop();
});

function clientOf(server: RunningServer, token?: string): Client {
  const made = userClient(server, token);
  clients.push(made);
  return made;
}

test('a write through instance B reaches the subscribers on A that may read it', async () => {
  const owner = (await createUser(b, { email: uniqueEmail('owner') })).token;
  const other = (await createUser(b, { email: uniqueEmail('other') })).token;
  const probe = () => entityOf(clientOf(b, SERVICE_TOKEN), 'Todo').create({ title: 'probe' });

  const ownerOnA = subscribeAll(clientOf(a, owner), ['Todo', 'Note']);
  const otherOnA = subscribeAll(clientOf(a, other), ['Todo', 'Note']);
  await subscriptionReady(probe, ownerOnA.Todo as RealtimeEvent[]);
  await subscriptionReady(probe, otherOnA.Todo as RealtimeEvent[]);

  const todo = (await entityOf(clientOf(b, other), 'Todo').create({ title: 'from B' })) as Row;
  const note = (await entityOf(clientOf(b, owner), 'Note').create({ text: 'owner only' })) as Row;
  await expect.poll(() => (ownerOnA.Note ?? []).filter((event) => event.id === note.id).length).toBe(1);
  await expect.poll(() => (otherOnA.Todo ?? []).some((event) => event.id === todo.id)).toBe(true);
  expect(ownerOnA.Note?.[0]).toMatchObject({ type: 'create', data: { text: 'owner only' } });
  await new Promise((wait) => setTimeout(wait, 400));
  expect(otherOnA.Note).toEqual([]);
});
