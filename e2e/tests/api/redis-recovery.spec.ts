import { FIXTURE_PROJECT } from '../../support/entities-helpers';
import { createConnection, createServer, type Server, type Socket as NetSocket } from 'node:net';
import { expect, test } from '../../support/test';
import type { Socket } from 'socket.io-client';
import { AUTH_ENV, SERVICE_TOKEN, api, userClient } from '../../support/auth-helpers';
import { connectSocket, eventually, received } from '../../support/realtime-client';
import { currentDatabaseMode, freePort, startServer, type RunningServer } from '../../support/server-process';

// Redis goes away and comes back while two instances run: during the outage the HTTP API answers on both,
// afterwards cross-instance events flow again without a restart. The outage is a TCP proxy in front of the
// machine's Redis that this spec closes and reopens (the shared Redis itself is never touched).
const appId = 'queen-solana';
const room = `entities:${appId}:Todo`;
const redisUrl = process.env.REDIS_URL;
// Rooms are accepted only for entities the project has: the fixture project has Todo.
const env = {
  ...AUTH_ENV,
  PROJECT_DIR: FIXTURE_PROJECT,
  JWT_SECRET: 'e2e-jwt-secret-0123456789abcdefghijklmnopqrstuvwxyz',
};

/** RedisProxy forwards a local port to Redis and can cut every connection, then accept again. */
class RedisProxy {
  private server: Server | null = null;
  private readonly links = new Set<NetSocket>();
  constructor(
    readonly port: number,
    private readonly target: URL,
  ) {}

  async open(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = createConnection(Number(this.target.port || 6379), this.target.hostname);
      for (const socket of [client, upstream]) {
        this.links.add(socket);
        socket.on('error', () => undefined);
        socket.on('close', () => {
          this.links.delete(socket);
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolveListen) => this.server?.listen(this.port, '127.0.0.1', resolveListen));
  }

  async cut(): Promise<void> {
    const closed = new Promise<void>((resolveClose) => this.server?.close(() => resolveClose()));
    for (const socket of this.links) socket.destroy();
    await closed;
    this.server = null;
  }
}

let proxy: RedisProxy;
let a: RunningServer;
let b: RunningServer;
let onA: Socket;

test.beforeAll(async () => {
  test.skip(
    currentDatabaseMode() !== 'postgres' || !redisUrl,
    'needs the api-postgres project (DATABASE_URL) and REDIS_URL',
  );
  proxy = new RedisProxy(await freePort(), new URL(redisUrl ?? ''));
  await proxy.open();
  const viaProxy = { ...env, REDIS_URL: `redis://127.0.0.1:${proxy.port}` };
  a = await startServer({ env: viaProxy });
  b = await startServer({ env: viaProxy, databaseUrl: a.databaseUrl });
  onA = await connectSocket(a.url, [room]);
});

test.afterAll(async () => {
  onA?.disconnect();
  await b?.stop();
  await a?.stop();
  await proxy?.cut().catch(() => undefined);
});

const pingThroughB = async () => {
  const response = await api(b, `/api/apps/${appId}/admin/realtime/ping`, {
    token: SERVICE_TOKEN,
    body: { room },
  });
  expect(response.status).toBe(202);
};

test('events cross instances, stop while Redis is away (the API still answers), and flow again after', async () => {
  test.setTimeout(60_000);
  const pings = received(onA, 'ping');
  expect(await eventually(pingThroughB, () => pings.length > 0)).toBe(true);

  await proxy.cut();
  await expect.poll(() => a.logs() + b.logs(), { timeout: 5_000 }).toContain('Redis unreachable');
  for (const server of [a, b]) {
    expect(await userClient(server).app.getPublicSettings()).toMatchObject({ id: appId });
  }
  pings.length = 0;
  await pingThroughB();
  await new Promise((wait) => setTimeout(wait, 500));
  expect(pings).toHaveLength(0);
  expect(onA.connected).toBe(true);

  await proxy.open();
  expect(await eventually(pingThroughB, () => pings.length > 0, { timeoutMs: 20_000, intervalMs: 500 })).toBe(
    true,
  );
  expect(a.logs()).toContain('Redis reachable again');
});

test('SIGTERM still exits 0 promptly after the outage', async () => {
  for (const server of [b, a]) {
    const started = Date.now();
    expect(await server.stop()).toBe(0);
    expect(Date.now() - started).toBeLessThan(5_000);
  }
});
