import { expect, forThisFile, test } from '../../support/test';
import { io } from 'socket.io-client';
import { SERVICE_TOKEN, createUser, uniqueEmail, userClient } from '../../support/auth-helpers';
import { entityOf } from '../../support/entities-helpers';
import { subscribeAll, subscriptionReady, type RealtimeEvent } from '../../support/realtime-client';
import type { RunningServer } from '../../support/server-process';

// Realtime through the official SDK: every committed write reaches subscribers, each filtered by what
// its own identity may read (record rules and field rules), on the socket the SDK opens itself.
type Client = ReturnType<typeof userClient>;
type Row = Record<string, unknown> & { id: string };

let server: RunningServer;
const clients: Client[] = [];
let tokens: Record<'owner' | 'other' | 'admin' | 'admin2', string>;

function client(token?: string): Client {
  const made = userClient(server, token);
  clients.push(made);
  return made;
}

/** listen subscribes a fresh client to Todo and names, and returns its events once its socket is in. */
async function listen(token: string | undefined, names: string[] = []) {
  const made = client(token);
  const events = subscribeAll(made, ['Todo', ...names]);
  await subscriptionReady(
    () => entityOf(client(SERVICE_TOKEN), 'Todo').create({ title: 'probe' }),
    events.Todo as RealtimeEvent[],
  );
  return { client: made, events };
}

const settle = () => new Promise((wait) => setTimeout(wait, 400));
const ofRecord = (events: RealtimeEvent[] | undefined, id: string) =>
  (events ?? []).filter((event) => event.id === id);

test.beforeAll(async ({ sharedEntitiesServer }) => {
  server = forThisFile(sharedEntitiesServer);
  const make = async (label: string, role: 'user' | 'admin' = 'user') =>
    (await createUser(server, { email: uniqueEmail(label), role })).token;
  tokens = {
    owner: await make('owner'),
    other: await make('other'),
    admin: await make('admin', 'admin'),
    admin2: await make('admin2', 'admin'),
  };
});

test.afterAll(async () => {
  for (const made of clients) made.cleanup();
});

test('create, update, delete, bulk create and delete-many reach a subscriber as SDK events', async () => {
  const { events } = await listen(undefined);
  const todo = entityOf(client(tokens.owner), 'Todo');
  const tag = `rt-${Date.now()}`;
  const created = (await todo.create({ title: tag })) as Row;
  await todo.update(created.id, { title: `${tag}-2` });
  await todo.delete(created.id);
  const bulk = (await todo.bulkCreate([{ title: tag }, { title: tag }])) as Row[];
  await todo.deleteMany({ title: tag });

  const ids = [created.id, ...bulk.map((row) => row.id)];
  await expect.poll(() => (events.Todo ?? []).filter((event) => ids.includes(event.id)).length).toBe(7);
  const mine = ofRecord(events.Todo, created.id);
  expect(mine.map((event) => event.type)).toEqual(['create', 'update', 'delete']);
  expect(mine[0]?.data).toMatchObject({ id: created.id, title: tag, completed: false });
  expect(mine[1]?.data).toMatchObject({ title: `${tag}-2` });
  expect(mine[2]?.data).toMatchObject({ id: created.id });
  for (const event of mine) expect(new Date(event.timestamp).toISOString()).toBe(event.timestamp);
  for (const row of bulk) {
    expect(ofRecord(events.Todo, row.id).map((event) => event.type)).toEqual(['create', 'delete']);
  }
});

test('owner-only records reach their owner and the service role, never another user or anonymous', async () => {
  const owner = await listen(tokens.owner, ['Note']);
  const service = await listen(SERVICE_TOKEN, ['Note']);
  const other = await listen(tokens.other, ['Note']);
  const anonymous = await listen(undefined, ['Note']);
  const forged = await listen('not-a-token', ['Note']);

  const notes = entityOf(owner.client, 'Note');
  const note = (await notes.create({ text: 'private' })) as Row;
  await notes.update(note.id, { text: 'still private' });
  await notes.delete(note.id);

  for (const reader of [owner, service]) {
    await expect
      .poll(() => ofRecord(reader.events.Note, note.id).map((event) => event.type))
      .toEqual(['create', 'update', 'delete']);
  }
  expect(ofRecord(owner.events.Note, note.id)[1]?.data).toMatchObject({ text: 'still private' });
  await settle();
  for (const outsider of [other, anonymous, forged]) expect(outsider.events.Note).toEqual([]);
});

test('field-level read rules strip hidden fields per recipient', async () => {
  const maker = await listen(tokens.admin, ['Secret']);
  const otherAdmin = await listen(tokens.admin2, ['Secret']);
  const user = await listen(tokens.other, ['Secret']);
  const secret = (await entityOf(maker.client, 'Secret').create({ label: 'vault', code: '1234' })) as Row;

  await expect.poll(() => ofRecord(otherAdmin.events.Secret, secret.id).length).toBe(1);
  await expect.poll(() => ofRecord(maker.events.Secret, secret.id).length).toBe(1);
  expect(ofRecord(maker.events.Secret, secret.id)[0]?.data).toMatchObject({ label: 'vault', code: '1234' });
  const seen = ofRecord(otherAdmin.events.Secret, secret.id)[0]?.data ?? {};
  expect(seen).toMatchObject({ id: secret.id, label: 'vault' });
  expect(seen).not.toHaveProperty('code');
  await settle();
  expect(user.events.Secret).toEqual([]);
});

test('setToken reconnects with the new identity', async () => {
  const { client: switching, events } = await listen(undefined, ['Note']);
  const notes = entityOf(client(tokens.owner), 'Note');
  const before = (await notes.create({ text: 'before' })) as Row;
  await settle();
  expect(ofRecord(events.Note, before.id)).toEqual([]);

  switching.setToken(tokens.owner);
  await subscriptionReady(
    () => entityOf(client(SERVICE_TOKEN), 'Todo').create({ title: 'probe' }),
    events.Todo as RealtimeEvent[],
  );
  const after = (await notes.create({ text: 'after' })) as Row;
  await expect.poll(() => ofRecord(events.Note, after.id).length).toBe(1);
});

test('an oversized record is slimmed with _oversize and its big fields emptied', async () => {
  const { events } = await listen(undefined);
  const big = 'x'.repeat(80 * 1024);
  const row = (await entityOf(client(), 'Todo').create({ title: 'big', description: big })) as Row;
  await expect.poll(() => ofRecord(events.Todo, row.id).length).toBe(1);
  expect(ofRecord(events.Todo, row.id)[0]?.data).toMatchObject({
    id: row.id,
    title: 'big',
    description: '',
    _oversize: true,
  });
});

test('a socket of another app is refused at the handshake (this server hosts one app)', async () => {
  const socket = io(server.url, {
    path: '/ws-user-apps/socket.io/',
    transports: ['websocket'],
    reconnection: false,
    query: { app_id: 'other-app', token: SERVICE_TOKEN },
  });
  try {
    const outcome = await new Promise<string>((resolveConnect) => {
      socket.once('connect', () => resolveConnect('connected'));
      socket.once('connect_error', (error) => resolveConnect(error.message));
    });
    expect(outcome).toBe('App "other-app" was not found');
  } finally {
    socket.disconnect();
  }
});
