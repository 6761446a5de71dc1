import { FIXTURE_PROJECT } from '../../support/entities-helpers';
import { expect, test } from '../../support/test';
import { AUTH_ENV, SERVICE_TOKEN, api, signUp, uniqueEmail, userClient } from '../../support/auth-helpers';
import { connectSocket, eventually, received } from '../../support/realtime-client';
import { freePort, startServer, type RunningServer } from '../../support/server-process';

// REDIS_URL pointing at a port where nothing listens: realtime degrades to this instance, the HTTP API
// does not notice, and SIGTERM still exits promptly. Runs on whichever store the project uses.
const appId = 'queen-solana';
const room = `entities:${appId}:Todo`;
let server: RunningServer;
let deadPort: number;

test.beforeAll(async () => {
  deadPort = await freePort();
  server = await startServer({
    // Rooms are accepted only for entities the project has: the fixture project has Todo.
    env: { ...AUTH_ENV, PROJECT_DIR: FIXTURE_PROJECT, REDIS_URL: `redis://127.0.0.1:${deadPort}` },
  });
});

test.afterAll(async () => {
  await server.stop();
});

test('the server starts, logs the Redis mode and that Redis is unreachable', async () => {
  expect(server.logs()).toContain(`Redis 127.0.0.1:${deadPort}`);
  await expect.poll(() => server.logs(), { timeout: 5_000 }).toContain('Redis unreachable');
});

test('the HTTP API answers: public settings, sign-up with OTP, User/me', async () => {
  expect(await userClient(server).app.getPublicSettings()).toMatchObject({ id: appId });
  const { token, user } = await signUp(server, uniqueEmail('no-redis'));
  expect(await userClient(server, token).auth.me()).toMatchObject({ id: user.id });
});

test('sockets still connect, and events published here reach this instance\u2019s sockets', async () => {
  const socket = await connectSocket(server.url, [room]);
  try {
    const pings = received(socket, 'ping');
    const arrived = await eventually(
      async () => {
        const response = await api(server, `/api/apps/${appId}/admin/realtime/ping`, {
          token: SERVICE_TOKEN,
          body: { room },
        });
        expect(response.status).toBe(202);
      },
      () => pings.length > 0,
    );
    expect(arrived).toBe(true);
  } finally {
    socket.disconnect();
  }
});

test('SIGTERM exits 0 within a few seconds while Redis is still down', async () => {
  // A socket stays connected so shutdown has realtime work to do.
  const socket = await connectSocket(server.url, [room]);
  const started = Date.now();
  expect(await server.stop()).toBe(0);
  expect(Date.now() - started).toBeLessThan(5_000);
  socket.disconnect();
  expect(server.logs()).toContain('"msg":"stopped"');
});
