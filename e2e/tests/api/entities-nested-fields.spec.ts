import { expect, forThisFile, test } from '../../support/test';
import {
  failure,
  SERVICE_TOKEN,
  createUser,
  serviceClient,
  uniqueEmail,
  userClient,
} from '../../support/auth-helpers';
import { entityOf } from '../../support/entities-helpers';
import { connectSocket, eventually, received } from '../../support/realtime-client';
import type { RunningServer } from '../../support/server-process';

// Nested field-level read rules on the Dossier fixture: a nested key whose rule fails is absent from
// every response and realtime payload, and the caller's q, sort, distinct and aggregate see it as missing.
const appId = 'queen-solana';
type Client = ReturnType<typeof userClient>;
type Row = Record<string, unknown> & { id: string };

let server: RunningServer;
let tokens: Record<'owner' | 'other', string>;
let owner: Client;
let other: Client;
let service: Pick<Client, 'entities'>;

test.beforeAll(async ({ sharedEntitiesServer }) => {
  server = forThisFile(sharedEntitiesServer);
  const make = async (label: string) => (await createUser(server, { email: uniqueEmail(label) })).token;
  tokens = { owner: await make('nf-owner'), other: await make('nf-other') };
  owner = userClient(server, tokens.owner);
  other = userClient(server, tokens.other);
  service = serviceClient(server).asServiceRole;
});

const dossier = (title: string, rank: number) => ({
  title,
  meta: { label: 'L', note: `note-${rank}`, rank, deep: { tag: 't', pin: `pin-${rank}` } },
  lines: [{ sku: 'a', cost: rank * 10 }, { sku: 'b' }],
});

/** STRIPPED is what a non-owner sees of dossier(…): every nested hidden key gone, siblings kept. */
const STRIPPED = { meta: { label: 'L', deep: { tag: 't' } }, lines: [{ sku: 'a' }, { sku: 'b' }] };

/** seed makes two owner dossiers (ranks 2 then 1) and one of other's (rank 3) under a fresh title. */
async function seed() {
  const title = `nf-${Date.now()}-${Math.random()}`;
  const a = (await entityOf(owner, 'Dossier').create(dossier(title, 2))) as Row;
  const b = (await entityOf(owner, 'Dossier').create(dossier(title, 1))) as Row;
  const c = (await entityOf(other, 'Dossier').create(dossier(title, 3))) as Row;
  return { title, a, b, c };
}

/** itemsOf returns the records of a v2 list page. */
const itemsOf = (page: { items: unknown[] }) => page.items as Row[];

function expectStripped(row: Row | undefined): void {
  expect(row).toMatchObject(STRIPPED);
  expect(row?.meta).toEqual(STRIPPED.meta);
  expect(row?.lines).toEqual(STRIPPED.lines);
}

test('a non-owner never sees the hidden nested keys; the owner and the service role do', async () => {
  const { title, a, c } = await seed();
  // The create response goes to the creator, who may read everything.
  expect(a).toMatchObject(dossier(title, 2));
  const theirs = entityOf(other, 'Dossier');
  expectStripped((await theirs.get(a.id)) as Row);
  expectStripped(((await theirs.filter({ id: a.id })) as Row[])[0]);
  expectStripped(((await theirs.list('-created_date', 50)) as Row[]).find((row) => row.id === a.id));
  const page = itemsOf(await theirs.filter({ title }, { sort: 'title', limit: 10 }));
  expectStripped(page.find((row) => row.id === a.id));
  expect(page.find((row) => row.id === c.id)).toMatchObject(dossier(title, 3));
  // Write responses to a non-owner are stripped too: update, bulkUpdate, upsert.
  expectStripped((await theirs.update(a.id, { title })) as Row);
  expectStripped(((await theirs.bulkUpdate([{ id: a.id, title }])) as Row[])[0]);
  const single = `${title}-upsert`;
  await entityOf(owner, 'Dossier').create(dossier(single, 4));
  const upserted = await theirs.upsert([{ title: single }], { key: 'title' });
  expect(upserted.updated).toBe(1);
  expectStripped((upserted.records as Row[])[0]);

  expect(await entityOf(owner, 'Dossier').get(a.id)).toMatchObject(dossier(title, 2));
  expect(await entityOf(service, 'Dossier').get(a.id)).toMatchObject(dossier(title, 2));
  expect(await entityOf(owner, 'Dossier').get(c.id)).toMatchObject(STRIPPED);
});

test('q on a hidden dotted path finds nothing for a non-owner and finds for the owner', async () => {
  const { title, a } = await seed();
  const ids = async (client: Pick<Client, 'entities'>, query: Record<string, unknown>) =>
    ((await entityOf(client, 'Dossier').filter({ title, ...query })) as Row[]).map((row) => row.id);
  for (const query of [
    { 'meta.note': 'note-2' },
    { 'meta.rank': { $gte: 2, $lt: 3 } },
    { 'meta.deep.pin': 'pin-2' },
    { 'meta.deep.pin': { $regex: '^pin-2' } },
    { 'lines.0.cost': 20 },
    { lines: { $elemMatch: { cost: 20 } } },
    { meta: { label: 'L', note: 'note-2', rank: 2, deep: { tag: 't', pin: 'pin-2' } } },
  ]) {
    expect(await ids(other, query), JSON.stringify(query)).toEqual([]);
    expect(await ids(owner, query), JSON.stringify(query)).toEqual([a.id]);
    expect(await ids(service, query), JSON.stringify(query)).toEqual([a.id]);
  }
  // Visible siblings still match for everyone.
  expect((await ids(other, { 'meta.deep.tag': 't', 'lines.1.sku': 'b' })).length).toBe(3);
  expect(await entityOf(other, 'Dossier').count({ title, 'meta.rank': { $exists: true } })).toBe(1);
});

test('sort, distinct and aggregate on a hidden dotted path give a non-owner no signal', async () => {
  const { title, a, b, c } = await seed();
  const order = async (client: Pick<Client, 'entities'>, sort: string) =>
    ((await entityOf(client, 'Dossier').filter({ title }, sort)) as Row[]).map((row) => row.id);
  // The owner sees ranks a=2, b=1; c's rank is hidden from the owner, so it sorts as missing (first).
  expect(await order(owner, 'meta.rank')).toEqual([c.id, b.id, a.id]);
  // For other, a and b are both missing: their relative order is the same both ways (the id tie-break).
  const up = await order(other, 'meta.rank');
  const down = await order(other, '-meta.rank');
  expect(up[2]).toBe(c.id);
  expect(down[0]).toBe(c.id);
  expect(up.slice(0, 2)).toEqual(down.slice(1));
  expect(up.slice(0, 2)).toEqual([a.id, b.id].sort());
  const walk = itemsOf(await entityOf(other, 'Dossier').filter({ title }, { sort: 'meta.rank', limit: 10 }));
  expect(walk.map((row) => row.id)).toEqual(up);

  const distinct = async (client: Pick<Client, 'entities'>, field: string) =>
    (
      (await entityOf(client, 'Dossier').filter({ title }, { distinct: field, limit: 10 })) as {
        items: unknown[];
      }
    ).items;
  expect(await distinct(other, 'meta.rank')).toEqual([3]);
  expect(await distinct(owner, 'meta.rank')).toEqual([1, 2]);
  expect(await distinct(other, 'meta.deep.pin')).toEqual(['pin-3']);

  const aggregate = await entityOf(other, 'Dossier').aggregate({
    query: { title },
    groupBy: 'meta.rank',
    countDistinct: 'meta.note',
  });
  expect(aggregate.rows).toEqual([
    { 'meta.rank': null, count: 2, 'count_distinct_meta.note': 0 },
    { 'meta.rank': 3, count: 1, 'count_distinct_meta.note': 1 },
  ]);
  const mine = await entityOf(owner, 'Dossier').aggregate({ query: { title }, groupBy: 'meta.rank' });
  expect(mine.rows).toEqual([
    { 'meta.rank': null, count: 1 },
    { 'meta.rank': 1, count: 1 },
    { 'meta.rank': 2, count: 1 },
  ]);
});

test('update-many operators cannot touch a hidden nested value: $rename cannot move it into sight (403)', async () => {
  const { a } = await seed();
  const theirs = entityOf(other, 'Dossier');
  const refused = await failure(theirs.updateMany({ id: a.id }, { $rename: { 'meta.note': 'title' } }));
  expect(refused.status).toBe(403);
  const stored = (await entityOf(service, 'Dossier').get(a.id)) as Row;
  expect(stored.title).toBe(a.title);
  expect(stored.meta).toMatchObject({ note: 'note-2' });
  // The owner's own rename does move it.
  await entityOf(owner, 'Dossier').updateMany({ id: a.id }, { $rename: { 'meta.note': 'title' } });
  expect(await entityOf(service, 'Dossier').get(a.id)).toMatchObject({ title: 'note-2' });
});

test('realtime update_model payloads strip hidden nested keys per recipient', async () => {
  const room = `entities:${appId}:Dossier`;
  const sockets = {
    owner: await connectSocket(server.url, [room], tokens.owner),
    other: await connectSocket(server.url, [room], tokens.other),
    service: await connectSocket(server.url, [room], SERVICE_TOKEN),
  };
  try {
    const payloads = Object.fromEntries(
      Object.entries(sockets).map(([name, socket]) => [
        name,
        received<{ data: string }>(socket, 'update_model'),
      ]),
    ) as Record<keyof typeof sockets, { data: string }[]>;
    const records = (name: keyof typeof sockets) =>
      payloads[name].map((payload) => JSON.parse(payload.data) as { id: string; type: string; data: Row });
    // Joins settle asynchronously: write until every socket has seen one of the owner's creates.
    const title = `nf-rt-${Date.now()}`;
    let last: Row | undefined;
    const ready = await eventually(
      async () => {
        last = (await entityOf(owner, 'Dossier').create(dossier(title, 7))) as Row;
      },
      () =>
        (['owner', 'other', 'service'] as const).every((name) =>
          records(name).some((r) => r.id === last?.id),
        ),
      { timeoutMs: 10_000 },
    );
    expect(ready).toBe(true);
    const seen = (name: keyof typeof sockets) => records(name).find((r) => r.id === last?.id)?.data;
    expect(seen('owner')).toMatchObject(dossier(title, 7));
    expect(seen('service')).toMatchObject(dossier(title, 7));
    expectStripped(seen('other') as Row);

    await entityOf(owner, 'Dossier').update(last?.id as string, { meta: { ...dossier(title, 8).meta } });
    await expect.poll(() => records('other').filter((r) => r.id === last?.id).length).toBe(2);
    expectStripped(records('other').filter((r) => r.id === last?.id)[1]?.data);
    await expect.poll(() => records('owner').filter((r) => r.id === last?.id).length).toBe(2);
    expect(records('owner').filter((r) => r.id === last?.id)[1]?.data).toMatchObject({
      meta: { note: 'note-8', rank: 8 },
    });
  } finally {
    for (const socket of Object.values(sockets)) socket.disconnect();
  }
});
