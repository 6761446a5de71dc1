import { expect, test } from '../../support/test';
import type { Socket } from 'socket.io-client';
import { PASSWORD, SERVICE_TOKEN, createUser, uniqueEmail } from '../../support/auth-helpers';
import { startEntitiesServer } from '../../support/entities-helpers';
import { connectSocket, eventually, received } from '../../support/realtime-client';
import type { RunningServer } from '../../support/server-process';

// The security contract of budgets: integrations are limited per IP and per user (429 + Retry-After +
// JSON message), auth keeps its limits on the same machinery without letting anyone lock an owner out,
// X-Forwarded-For counts only with TRUST_PROXY, counters are shared through Redis, and realtime rooms
// are only of known entities and capped per socket.

type ServerName = 'direct' | 'proxied';
type Caller = 'anonymous' | 'user';

interface Scenario {
  name: string;
  server: ServerName;
  request: 'integration' | 'login';
  caller: Caller;
  /** ips is the X-Forwarded-For of each attempt, in order (null: none). */
  ips: (string | null)[];
  /** statuses are the expected answers, attempt by attempt. */
  statuses: number[];
  effect: string;
}

const INTEGRATION_PER_IP = 3;
const INTEGRATION_PER_USER = 2;
const AUTH_PER_ACCOUNT = 3;

/** SCENARIOS is the table; `login` rows with 401 use a wrong password, 200 the right one. */
const SCENARIOS: Scenario[] = [
  {
    name: 'integration per IP',
    server: 'direct',
    request: 'integration',
    caller: 'anonymous',
    ips: [null, null, null, null],
    statuses: [200, 200, 200, 429],
    effect: 'the 4th call generates nothing',
  },
  {
    name: 'TRUST_PROXY off: X-Forwarded-For does not buy a new budget',
    server: 'direct',
    request: 'integration',
    caller: 'user',
    ips: ['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.4'],
    statuses: [429, 429, 429, 429],
    effect: 'the socket address (already spent above) is what counts',
  },
  {
    name: 'TRUST_PROXY on: each forwarded client has its own IP budget',
    server: 'proxied',
    request: 'integration',
    caller: 'anonymous',
    ips: ['10.1.0.1', '10.1.0.1', '10.1.0.1', '10.1.0.1', '10.1.0.2'],
    statuses: [200, 200, 200, 429, 200],
    effect: 'one visitor over budget does not spend another’s',
  },
  {
    name: 'integration per user across IPs',
    server: 'proxied',
    request: 'integration',
    caller: 'user',
    ips: ['10.2.0.1', '10.2.0.2', '10.2.0.3'],
    statuses: [200, 200, 429],
    effect: 'a user cannot escape the budget by changing address',
  },
  {
    name: 'auth brute force from one IP',
    server: 'proxied',
    request: 'login',
    caller: 'anonymous',
    ips: ['10.3.0.1', '10.3.0.1', '10.3.0.1', '10.3.0.1'],
    statuses: [401, 401, 401, 429],
    effect: 'no token issued',
  },
];

let servers: Record<ServerName, RunningServer>;
let userToken: Record<ServerName, string>;
let ownerEmail: string;

/** MAX_SOCKETS is the proxied server's REALTIME_MAX_SOCKETS (the direct one derives its own). */
const MAX_SOCKETS = 3;

const LIMIT_ENV = {
  INTEGRATION_RATE_LIMIT_PER_MINUTE: String(INTEGRATION_PER_IP),
  INTEGRATION_RATE_LIMIT_PER_USER_PER_MINUTE: String(INTEGRATION_PER_USER),
  AUTH_RATE_LIMIT_ACCOUNT: String(AUTH_PER_ACCOUNT),
  REALTIME_MAX_ROOMS_PER_SOCKET: '2',
};

test.beforeAll(async () => {
  // Two servers start at once: first PGlite start-ups are slow on a busy machine.
  test.setTimeout(240_000);
  const [direct, proxied] = await Promise.all([
    startEntitiesServer({ env: LIMIT_ENV }),
    startEntitiesServer({
      env: { ...LIMIT_ENV, TRUST_PROXY: 'loopback', REALTIME_MAX_SOCKETS: String(MAX_SOCKETS) },
    }),
  ]);
  servers = { direct, proxied };
  ownerEmail = uniqueEmail('owner');
  userToken = {
    direct: (await createUser(direct, { email: uniqueEmail('direct') })).token,
    proxied: (await createUser(proxied, { email: ownerEmail })).token,
  };
});

test.afterAll(async () => {
  await Promise.all([servers.direct.stop(), servers.proxied.stop()]);
});

const appId = 'queen-solana';

async function call(
  server: RunningServer,
  path: string,
  init: { body: unknown; token?: string | undefined; ip?: string | null },
) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.ip) headers['x-forwarded-for'] = init.ip;
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers,
    body: JSON.stringify(init.body),
  });
  const json = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  return { status: response.status, retryAfter: response.headers.get('retry-after'), json };
}

for (const row of SCENARIOS) {
  test(`${row.name}: ${row.statuses.join(', ')} (${row.effect})`, async () => {
    const server = servers[row.server];
    const statuses: number[] = [];
    for (const [attempt, ip] of row.ips.entries()) {
      const result =
        row.request === 'integration'
          ? await call(server, `/api/apps/${appId}/integration-endpoints/Core/GenerateImage`, {
              body: { prompt: `budget ${row.name} ${attempt}` },
              token: row.caller === 'user' ? userToken[row.server] : undefined,
              ip,
            })
          : await call(server, `/api/apps/${appId}/auth/login`, {
              body: { email: ownerEmail, password: `wrong-${attempt}` },
              ip,
            });
      statuses.push(result.status);
      if (result.status === 429) {
        expect(Number(result.retryAfter)).toBeGreaterThan(0);
        expect(typeof result.json.message).toBe('string');
      }
      if (result.status === 200 && row.request === 'integration')
        expect(String(result.json.url)).toContain('/media/');
      if (row.request === 'login') expect(result.json.access_token).toBeUndefined();
    }
    expect(statuses).toEqual(row.statuses);
  });
}

test('a locked-out attacker does not lock the owner out: the right password from another IP signs in', async () => {
  // The brute-force row above spent the owner account's budget from 10.3.0.1.
  const attacker = await call(servers.proxied, `/api/apps/${appId}/auth/login`, {
    body: { email: ownerEmail, password: PASSWORD },
    ip: '10.3.0.1',
  });
  expect(attacker.status).toBe(429);
  const owner = await call(servers.proxied, `/api/apps/${appId}/auth/login`, {
    body: { email: ownerEmail, password: PASSWORD },
    ip: '10.9.9.9',
  });
  expect(owner.status).toBe(200);
  expect(typeof owner.json.access_token).toBe('string');
});

test('integration budgets are shared by instances through Redis (REDIS_URL)', async () => {
  test.setTimeout(240_000);
  const env = {
    ...LIMIT_ENV,
    REDIS_URL: 'redis://127.0.0.1:6379',
    REDIS_PREFIX: `rate-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
  };
  const [a, b] = await Promise.all([startEntitiesServer({ env }), startEntitiesServer({ env })]);
  try {
    const statuses: number[] = [];
    for (const server of [a, b, a, b]) {
      const result = await call(server, `/api/apps/${appId}/integration-endpoints/Core/GenerateImage`, {
        body: { prompt: 'shared budget' },
      });
      statuses.push(result.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
});

test('realtime: rooms of unknown entities are refused and a socket’s rooms are capped', async () => {
  const server = servers.direct;
  const sockets: Socket[] = [];
  try {
    // The cap is 2: Todo and Note are joined, Secret (a third known entity) is not; Nope does not exist.
    const capped = await connectSocket(server.url, [], SERVICE_TOKEN);
    sockets.push(capped);
    for (const entity of ['Todo', 'Note', 'Secret']) capped.emit('join', `entities:${appId}:${entity}`);
    const unknown = await connectSocket(server.url, [`entities:${appId}:Nope`], SERVICE_TOKEN);
    sockets.push(unknown);
    const updates = received<{ room: string }>(capped, 'update_model');
    const pings = received<{ room: string }>(unknown, 'ping');

    const bodies: Record<string, object> = {
      Todo: { title: 'rooms' },
      Note: { text: 'rooms' },
      Secret: { label: 'rooms' },
    };
    const write = async (entity: string) => {
      const result = await call(server, `/api/apps/${appId}/entities/${entity}`, {
        body: bodies[entity],
        token: SERVICE_TOKEN,
      });
      expect(result.status, JSON.stringify(result.json)).toBe(201);
    };
    const roomsSeen = () => new Set(updates.map((update) => update.room.split(':')[2]));
    expect(
      await eventually(
        async () => {
          await write('Todo');
          await write('Note');
        },
        () => roomsSeen().has('Todo') && roomsSeen().has('Note'),
      ),
    ).toBe(true);
    await write('Secret');
    // The ping diagnostic publishes to any room of the app: only a socket in the room could receive it.
    const ping = await call(server, `/api/apps/${appId}/admin/realtime/ping`, {
      body: { room: `entities:${appId}:Nope` },
      token: SERVICE_TOKEN,
    });
    expect(ping.status).toBe(202);
    await new Promise((wait) => setTimeout(wait, 500));
    expect(roomsSeen().has('Secret')).toBe(false);
    expect(pings).toHaveLength(0);
    // The server is unharmed: a fresh socket still joins and receives.
    const fresh = await connectSocket(server.url, [`entities:${appId}:Todo`], SERVICE_TOKEN);
    sockets.push(fresh);
    const freshUpdates = received(fresh, 'update_model');
    expect(
      await eventually(
        () => write('Todo'),
        () => freshUpdates.length > 0,
      ),
    ).toBe(true);
  } finally {
    for (const socket of sockets) socket.disconnect();
  }
});

test('realtime: past REALTIME_MAX_SOCKETS a socket gets a clear connect_error, and HTTP is unaffected', async () => {
  const server = servers.proxied;
  const sockets: Socket[] = [];
  try {
    for (let index = 0; index < MAX_SOCKETS; index += 1) sockets.push(await connectSocket(server.url));
    const refused = await connectSocket(server.url).then(
      (socket) => (sockets.push(socket), 'connected'),
      (error: Error) => error.message,
    );
    expect(refused).toContain('REALTIME_MAX_SOCKETS');
    // The HTTP API does not share the cap.
    const created = await call(server, `/api/apps/${appId}/entities/Todo`, {
      body: { title: 'past the socket cap' },
      token: SERVICE_TOKEN,
    });
    expect(created.status).toBe(201);
    // The cap counts live connections: once one closes (and the refused one is let go), a new one connects.
    sockets.shift()?.disconnect();
    let again: Socket | null = null;
    const connected = await eventually(
      async () => {
        again = await connectSocket(server.url).catch(() => null);
      },
      () => again !== null,
    );
    expect(connected).toBe(true);
    if (again) sockets.push(again);
    expect(server.logs()).toContain('"maxSockets":3');
  } finally {
    for (const socket of sockets) socket.disconnect();
  }
});
