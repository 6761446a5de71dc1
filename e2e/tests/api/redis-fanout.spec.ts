import { FIXTURE_PROJECT } from '../../support/entities-helpers';
import { expect, test } from '../../support/test';
import type { Socket } from 'socket.io-client';
import { AUTH_ENV, SERVICE_TOKEN, api, signUp, uniqueEmail } from '../../support/auth-helpers';
import { connectSocket, eventually, received } from '../../support/realtime-client';
import { currentDatabaseMode, startServer, type RunningServer } from '../../support/server-process';

// Two instances on one PostgreSQL database and one Redis: an event published on B reaches a socket on A.
// Runs in the api-postgres project when REDIS_URL is set (.ci/run sets both).
const appId = 'queen-solana';
const room = `entities:${appId}:Todo`;
const redisUrl = process.env.REDIS_URL;
// Instances behind one load balancer share their secrets through the environment, not their DATA_DIRs.
const env = {
  ...AUTH_ENV,
  // Rooms are accepted only for entities the project has: the fixture project has Todo and Note.
  PROJECT_DIR: FIXTURE_PROJECT,
  JWT_SECRET: 'e2e-jwt-secret-0123456789abcdefghijklmnopqrstuvwxyz',
  REDIS_URL: redisUrl ?? '',
};

let a: RunningServer;
let b: RunningServer;
const sockets: Socket[] = [];

test.beforeAll(async () => {
  test.skip(
    currentDatabaseMode() !== 'postgres' || !redisUrl,
    'needs the api-postgres project (DATABASE_URL) and REDIS_URL',
  );
  a = await startServer({ env });
  b = await startServer({ env, databaseUrl: a.databaseUrl });
});

test.afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await b?.stop();
  await a?.stop();
});

const ping = (server: RunningServer, body: unknown, token = SERVICE_TOKEN) =>
  api(server, `/api/apps/${appId}/admin/realtime/ping`, { token, body });

test('both instances log the Redis realtime mode', () => {
  const host = new URL(redisUrl ?? 'redis://x').host;
  for (const server of [a, b]) expect(server.logs()).toContain(`Redis ${host}`);
});

test('a ping published through instance B reaches a socket connected to instance A', async () => {
  const onA = await connectSocket(a.url, [room]);
  sockets.push(onA);
  const pings = received<{ type: string; room: string; sent_at: string }>(onA, 'ping');
  const arrived = await eventually(
    async () => {
      const response = await ping(b, { room });
      expect(response.status).toBe(202);
    },
    () => pings.length > 0,
  );
  expect(arrived).toBe(true);
  expect(pings[0]).toMatchObject({ type: 'ping', room });
  expect(Object.keys(pings[0] ?? {}).sort()).toEqual(['room', 'sent_at', 'type']);
});

test('a socket that left the room, or joined another, receives nothing', async () => {
  const left = await connectSocket(a.url, [room]);
  const elsewhere = await connectSocket(a.url, [`entities:${appId}:Note`]);
  const witness = await connectSocket(a.url, [room]);
  sockets.push(left, elsewhere, witness);
  left.emit('leave', room);
  const leftPings = received(left, 'ping');
  const elsewherePings = received(elsewhere, 'ping');
  const witnessPings = received(witness, 'ping');
  const arrived = await eventually(
    async () => void (await ping(b, { room })),
    () => witnessPings.length > 0,
  );
  expect(arrived).toBe(true);
  expect(leftPings).toHaveLength(0);
  expect(elsewherePings).toHaveLength(0);
});

test('an instance with another REDIS_PREFIX on the same Redis hears nothing of this deployment', async () => {
  const other = await startServer({ env: { ...env, REDIS_PREFIX: `other-deployment-${process.pid}` } });
  try {
    const onOther = await connectSocket(other.url, [room]);
    const witness = await connectSocket(a.url, [room]);
    sockets.push(onOther, witness);
    const otherPings = received(onOther, 'ping');
    const witnessPings = received(witness, 'ping');
    const arrived = await eventually(
      async () => void (await ping(b, { room })),
      () => witnessPings.length > 0,
    );
    expect(arrived).toBe(true);
    expect(otherPings).toHaveLength(0);
  } finally {
    await other.stop();
  }
});

test('the ping is for the service role only, and only for its own app\u2019s rooms', async () => {
  const { token } = await signUp(b, uniqueEmail('pinger'));
  expect((await ping(b, { room })).status).toBe(202);
  expect((await ping(b, { room }, token)).status).toBe(403);
  expect((await ping(b, { room }, '')).status).toBe(401);
  expect((await ping(b, { room: 'entities:other-app:Todo' })).status).toBe(403);
  expect((await ping(b, {})).status).toBe(400);
});
