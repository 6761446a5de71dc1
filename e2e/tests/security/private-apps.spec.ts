import { expect, test } from '../../support/test';
import type { Socket } from 'socket.io-client';
import { SERVICE_TOKEN, api, createUser, signUp, uniqueEmail } from '../../support/auth-helpers';
import {
  apiScenarios,
  bearer,
  realtimeDelivery,
  storedAfter,
  type ApiRequest,
  type ApiScenario,
  type Expectation,
} from '../../support/api-scenario';
import { startEntitiesServer } from '../../support/entities-helpers';
import { withServerDatabase } from '../../support/postgres';
import { connectSocket, eventually, received } from '../../support/realtime-client';
import { removeServerData, type RunningServer } from '../../support/server-process';

// The security contract of a `private_with_login` app: its data, integrations, analytics and realtime
// rooms are reachable only by approved users (and admins) and the service role. Anonymous callers are
// asked to sign in (401, extra_data.reason `auth_required`); signed-in users the app has not approved are
// refused (403, `user_not_registered`). Public settings and sign-in stay reachable for everyone.

type Caller = 'anonymous' | 'unapproved' | 'user' | 'admin' | 'service';
type Request = 'list' | 'create' | 'count' | 'get' | 'integration' | 'analytics';
type Effect = 'record created' | 'no record created' | 'analytics stored' | 'no analytics row' | 'none';

interface Scenario {
  request: Request;
  caller: Caller;
  status: number;
  effect: Effect;
}

const appId = 'queen-solana';
const refusals: Record<Caller, number | null> = {
  anonymous: 401,
  unapproved: 403,
  user: null,
  admin: null,
  service: null,
};
const allowed: Record<Request, { status: number; effect: Effect }> = {
  list: { status: 200, effect: 'none' },
  create: { status: 201, effect: 'record created' },
  count: { status: 200, effect: 'none' },
  get: { status: 200, effect: 'none' },
  integration: { status: 200, effect: 'none' },
  analytics: { status: 204, effect: 'analytics stored' },
};
const refusedEffect: Record<Request, Effect> = {
  list: 'none',
  create: 'no record created',
  count: 'none',
  get: 'none',
  integration: 'none',
  analytics: 'no analytics row',
};

/** SCENARIOS is the table: every request by every caller, with the status and what is (not) stored. */
const SCENARIOS: Scenario[] = (
  ['list', 'create', 'count', 'get', 'integration', 'analytics'] as const
).flatMap((request) =>
  (['anonymous', 'unapproved', 'user', 'admin', 'service'] as const).map((caller) => {
    const refusal = refusals[caller];
    return refusal === null
      ? { request, caller, ...allowed[request] }
      : { request, caller, status: refusal, effect: refusedEffect[request] };
  }),
);

/** REALTIME is who receives a Todo event after joining `entities:<app>:Todo` on a private app. */
const REALTIME: { caller: Caller; receives: boolean }[] = [
  { caller: 'anonymous', receives: false },
  { caller: 'unapproved', receives: false },
  { caller: 'user', receives: true },
  { caller: 'admin', receives: true },
  { caller: 'service', receives: true },
];

let server: RunningServer;
let tokens: Record<Caller, string | undefined>;
let seededId: string;
const analyticsTags: { tag: string; stored: boolean }[] = [];

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startEntitiesServer({
    keepData: true,
    env: {
      APP_VISIBILITY: 'private_with_login',
      APP_SELF_SIGNUP: 'false',
      INTEGRATION_RATE_LIMIT_PER_MINUTE: '1000',
    },
  });
  tokens = {
    anonymous: undefined,
    unapproved: (await signUp(server, uniqueEmail('unapproved'))).token,
    user: (await createUser(server, { email: uniqueEmail('member') })).token,
    admin: (await createUser(server, { email: uniqueEmail('admin'), role: 'admin' })).token,
    service: SERVICE_TOKEN,
  };
  const seeded = await api(server, `/api/apps/${appId}/entities/Todo`, {
    token: SERVICE_TOKEN,
    body: { title: 'seeded' },
  });
  seededId = String(seeded.json.id);
});

test.afterAll(async () => {
  await server.stop();
  await removeServerData(server);
});

async function countTitled(title: string): Promise<number> {
  const q = encodeURIComponent(JSON.stringify({ title }));
  const result = await api(server, `/api/apps/${appId}/entities/Todo/count?q=${q}`, {
    method: 'GET',
    token: SERVICE_TOKEN,
  });
  return Number(result.json.count);
}

/** requestOf is the HTTP request of a table row; `tag` names what it writes. */
function requestOf(request: Request, tag: string): ApiRequest {
  const base = `/api/apps/${appId}`;
  switch (request) {
    case 'list':
      return { method: 'GET', path: `${base}/entities/Todo` };
    case 'create':
      return { method: 'POST', path: `${base}/entities/Todo`, body: { title: tag } };
    case 'count':
      return { method: 'GET', path: `${base}/entities/Todo/count` };
    case 'get':
      return { method: 'GET', path: `${base}/entities/Todo/${seededId}` };
    case 'integration':
      return {
        method: 'POST',
        path: `${base}/integration-endpoints/Core/GenerateImage`,
        body: { prompt: tag },
      };
    case 'analytics':
      return {
        method: 'POST',
        path: `${base}/analytics/track/batch`,
        body: { events: [{ event_name: tag }] },
      };
  }
}

/** STORED is each effect's check; analytics rows are checked in the database by a test below. */
const STORED: Record<Effect, Expectation<{ tag: string }> | undefined> = {
  'record created': storedAfter(async ({ tag }) => expect(await countTitled(tag)).toBe(1)),
  'no record created': storedAfter(async ({ tag }) => expect(await countTitled(tag)).toBe(0)),
  'analytics stored': storedAfter(async ({ tag }) => void analyticsTags.push({ tag, stored: true })),
  'no analytics row': storedAfter(async ({ tag }) => void analyticsTags.push({ tag, stored: false })),
  none: undefined,
};

/** todoCreatedEvent: a service-role socket in the Todo room hears (or not) the row's created Todo. */
function todoCreatedEvent(receives: boolean): Expectation<{ tag: string }> {
  return realtimeDelivery({
    serverUrl: () => server.url,
    room: `entities:${appId}:Todo`,
    token: SERVICE_TOKEN,
    probe: () =>
      api(server, `/api/apps/${appId}/entities/Todo`, { token: SERVICE_TOKEN, body: { title: 'probe' } }),
    isProbe: (text) => text.includes('probe'),
    caused: (text, { tag }) => text.includes(tag),
    receives,
  });
}

/** REASONS is the `extra_data` of each refusal (the protocol's auth_required and user_not_registered). */
const REASONS: Record<number, unknown> = {
  401: { reason: 'auth_required' },
  403: { reason: 'user_not_registered' },
};

apiScenarios(
  SCENARIOS.map((row): ApiScenario<{ tag: string }, Caller> => ({
    name: `${row.request} by ${row.caller}, ${row.effect}`,
    caller: row.caller,
    request: ({ tag }) => requestOf(row.request, tag),
    status: row.status,
    ...(row.status in REASONS
      ? { answer: (answer) => expect(answer.json.extra_data).toEqual(REASONS[row.status]) }
      : {}),
    ...(STORED[row.effect] ? { stored: STORED[row.effect] } : {}),
    // A create reaches the service role's socket in the Todo room exactly when it was stored.
    ...(row.request === 'create' ? { realtime: todoCreatedEvent(row.effect === 'record created') } : {}),
  })),
  {
    baseUrl: () => server.url,
    headersFor: (caller) => bearer(tokens[caller]),
    // `private-<request>-<caller>-…`: the analytics test below finds its rows by `private-analytics-`.
    setUp: async ({ name, caller }) => ({ tag: `private-${name.split(' ')[0]}-${caller}-${Date.now()}` }),
  },
);

test('realtime: only approved users, admins and the service role receive a private app’s events', async () => {
  const sockets: Socket[] = [];
  try {
    const inbox = new Map<Caller, unknown[]>();
    for (const { caller } of REALTIME) {
      const socket = await connectSocket(server.url, [`entities:${appId}:Todo`], tokens[caller] ?? 'null');
      sockets.push(socket);
      inbox.set(caller, received(socket, 'update_model'));
    }
    const expected = REALTIME.filter((row) => row.receives).map((row) => row.caller);
    const delivered = await eventually(
      async () => {
        await api(server, `/api/apps/${appId}/entities/Todo`, {
          token: SERVICE_TOKEN,
          body: { title: 'rt' },
        });
      },
      () => expected.every((caller) => (inbox.get(caller)?.length ?? 0) > 0),
    );
    expect(delivered).toBe(true);
    // One more event, delivered to the admitted sockets: the others had every chance to receive it too.
    await new Promise((wait) => setTimeout(wait, 500));
    for (const { caller, receives } of REALTIME) {
      expect((inbox.get(caller)?.length ?? 0) > 0, caller).toBe(receives);
    }
  } finally {
    for (const socket of sockets) socket.disconnect();
  }
});

test('realtime: a signed-out socket that joined while the app was open stops receiving once it is private', async () => {
  const settings = (visibility: string) =>
    api(server, `/api/apps/${appId}/admin/settings`, {
      method: 'PUT',
      token: SERVICE_TOKEN,
      body: { visibility },
    });
  const sockets: Socket[] = [];
  try {
    expect((await settings('public_without_login')).status).toBe(200);
    const anonymous = await connectSocket(server.url, [`entities:${appId}:Todo`]);
    const member = await connectSocket(server.url, [`entities:${appId}:Todo`], tokens.user);
    sockets.push(anonymous, member);
    const anonymousInbox = received(anonymous, 'update_model');
    const memberInbox = received(member, 'update_model');
    const write = async () => {
      await api(server, `/api/apps/${appId}/entities/Todo`, {
        token: SERVICE_TOKEN,
        body: { title: 'switch' },
      });
    };
    expect(await eventually(write, () => anonymousInbox.length > 0)).toBe(true);
    expect((await settings('private_with_login')).status).toBe(200);
    const before = { anonymous: anonymousInbox.length, member: memberInbox.length };
    expect(await eventually(write, () => memberInbox.length > before.member)).toBe(true);
    await new Promise((wait) => setTimeout(wait, 500));
    expect(anonymousInbox.length).toBe(before.anonymous);
  } finally {
    for (const socket of sockets) socket.disconnect();
    await settings('private_with_login');
  }
});

test('public settings and sign-in stay reachable on a private app', async () => {
  const settings = await fetch(`${server.url}/api/apps/public/prod/public-settings/by-id/${appId}`);
  expect(settings.status).toBe(403);
  expect((await settings.json()).extra_data).toEqual({ reason: 'auth_required' });
  const login = await api(server, `/api/apps/${appId}/auth/login`, {
    body: { email: uniqueEmail('nobody'), password: 'wrong password' },
  });
  expect(login.status).toBe(401);
  const register = await api(server, `/api/apps/${appId}/auth/register`, {
    body: { email: uniqueEmail('newcomer'), password: 'a good long password' },
  });
  expect(register.status).toBe(200);
  const reset = await api(server, `/api/apps/${appId}/auth/reset-password-request`, {
    body: { email: uniqueEmail('forgetful') },
  });
  expect(reset.status).toBe(200);
});

test('analytics rows: stored for admitted callers only (checked in the database)', async () => {
  expect(analyticsTags.length).toBeGreaterThan(0);
  if (!server.databaseUrl) await server.stop();
  const stored = await withServerDatabase(server, (query) =>
    query<{ event_name: string }>('SELECT event_name FROM analytics_events WHERE event_name LIKE $1', [
      'private-analytics-%',
    ]),
  );
  const names = new Set(stored.map((row) => row.event_name));
  for (const { tag, stored: expected } of analyticsTags) expect(names.has(tag), tag).toBe(expected);
});

test('start-up warns when a private app approves every self-sign-up', async () => {
  const open = await startEntitiesServer({ env: { APP_VISIBILITY: 'private_with_login' } });
  try {
    expect(open.logs()).toMatch(/private_with_login with self-sign-up on/);
    expect(server.logs()).not.toMatch(/private_with_login with self-sign-up on/);
  } finally {
    await open.stop();
  }
});
