import { mkdir, mkdtemp, readdir, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../../support/test';
import { api, AUTH_ENV, createUser, uniqueEmail } from '../../support/auth-helpers';
import { createFakeAppDist, createFakeSiteDist } from '../../support/fake-site-dist';
import { onThisMachine, slowestAnswerDuring } from '../../support/responsiveness';
import { DEFAULT_APP_ID } from '../../support/sdk-client';
import { startServer, type RunningServer } from '../../support/server-process';

// Issue 18, points 6, 8, 12, 13 and 16 against real server processes: stalled bodies and headers are cut,
// one address cannot hold more connections or realtime sockets than its cap, a custom integration's
// secret never follows a redirect to another host, path parameters stay in their template, malformed
// multipart, unresolvable and local hosts answer 4xx/502, no token reaches the request log, and a build
// folder's dotfiles and out-of-root symlinks are not served. Each attacker connects from its own loopback
// address (127.0.0.x), so the per-address caps it meets leave the test's own /healthz polls alone.

const APP = `/api/apps/${DEFAULT_APP_ID}`;
const SECRET = 'integration-secret-do-not-leak-0123456789';
const KEY_SECRET = 'api-key-secret-do-not-leak-9876543210';
const LIMITS = {
  REQUEST_TIMEOUT_MS: '1000',
  REQUEST_MIN_BYTES_PER_SECOND: '1024',
  HTTP_HEADERS_TIMEOUT_MS: '1000',
  MAX_CONNECTIONS_PER_IP: '20',
  REALTIME_MAX_SOCKETS_PER_IP: '5',
  REALTIME_HANDSHAKES_PER_IP_PER_MINUTE: '30',
};

interface Seen {
  url: string;
  headers: IncomingHttpHeaders;
}

/** Double is a small HTTP server recording what reached it; handle answers each request. */
interface Double {
  origin: string;
  hostPort: string;
  seen: Seen[];
  close(): Promise<void>;
}

async function startDouble(
  handle: (
    url: string,
    answer: (status: number, headers: Record<string, string>, body?: string) => void,
  ) => void,
): Promise<Double> {
  const seen: Seen[] = [];
  const server: Server = createServer((request, response) => {
    seen.push({ url: request.url ?? '', headers: request.headers });
    request.resume();
    handle(request.url ?? '/', (status, headers, body) => {
      response.writeHead(status, headers);
      response.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hostPort: `127.0.0.1:${port}`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** RawExchange is what a hand-written HTTP exchange received, and whether the server closed it. */
interface RawExchange {
  socket: Socket;
  received: () => string;
  closed: Promise<void>;
}

/** openRaw connects from localAddress and sends text as is (a partial request, a stalled body…). */
async function openRaw(port: number, localAddress: string, text = ''): Promise<RawExchange> {
  const socket = connect({ host: '127.0.0.1', port, localAddress });
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  if (text) socket.write(text);
  return { socket, received: () => received, closed };
}

/** wsHandshake is a socket.io WebSocket handshake (as the SDK opens one) from localAddress: its status line. */
async function wsHandshake(
  port: number,
  localAddress: string,
): Promise<RawExchange & { status: Promise<string> }> {
  const exchange = await openRaw(
    port,
    localAddress,
    [
      `GET /ws-user-apps/socket.io/?EIO=4&transport=websocket&app_id=${DEFAULT_APP_ID}&token=null HTTP/1.1`,
      'Host: 127.0.0.1',
      'Connection: Upgrade',
      'Upgrade: websocket',
      'Sec-WebSocket-Version: 13',
      `Sec-WebSocket-Key: ${Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64')}`,
      '',
      '',
    ].join('\r\n'),
  );
  const status = new Promise<string>((resolve) => {
    const check = () => {
      const line = exchange.received().split('\r\n', 1)[0] ?? '';
      if (exchange.received().includes('\r\n')) return resolve(line);
      setTimeout(check, 10);
    };
    check();
    void exchange.closed.then(() => resolve(exchange.received().split('\r\n', 1)[0] ?? 'closed'));
  });
  return { ...exchange, status };
}

let api1: Double;
let elsewhere: Double;
let projectDir: string;
let siteDist: string;
let appDist: string;
let outside: string;
let server: RunningServer;
let hosted: RunningServer;

/** writeDotfilesAndLinks adds what a build folder must never serve to root. */
async function writeDotfilesAndLinks(root: string) {
  await writeFile(join(root, '.env'), 'DATABASE_PASSWORD=dotenv-secret\n');
  await mkdir(join(root, '.git'));
  await writeFile(join(root, '.git/config'), '[remote "origin"]\n\turl = git-config-secret\n');
  await symlink(join(outside, 'secrets.json'), join(root, 'linked-secrets.json'));
  await symlink(outside, join(root, 'linked-dir'));
}

test.beforeAll(async () => {
  elsewhere = await startDouble((_url, answer) =>
    answer(200, { 'content-type': 'application/json' }, '{"elsewhere":true}'),
  );
  api1 = await startDouble((url, answer) => {
    if (url.startsWith('/v1/redirect')) return answer(302, { location: `${elsewhere.origin}/steal` }, '');
    if (url.startsWith('/v1/same-origin')) return answer(302, { location: '/v1/items/moved' }, '');
    answer(200, { 'content-type': 'application/json' }, JSON.stringify({ url }));
  });
  const openapi = {
    openapi: '3.0.3',
    paths: {
      '/redirect': { get: { operationId: 'redirect' } },
      '/same-origin': { get: { operationId: 'sameOrigin' } },
      '/items/{id}': {
        get: {
          operationId: 'getItem',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        },
      },
    },
  };
  projectDir = await mkdtemp(join(tmpdir(), 'queen-edge-project-'));
  await mkdir(join(projectDir, 'integrations'));
  const integration = (auth: unknown) => JSON.stringify({ baseUrl: `${api1.origin}/v1`, openapi, auth });
  await writeFile(
    join(projectDir, 'integrations', 'bearer.jsonc'),
    integration({ header: 'Authorization', secret: 'EDGE_TOKEN', prefix: 'Bearer ' }),
  );
  await writeFile(
    join(projectDir, 'integrations', 'keyed.jsonc'),
    integration({ header: 'X-Api-Key', secret: 'EDGE_KEY' }),
  );

  outside = await mkdtemp(join(tmpdir(), 'queen-edge-outside-'));
  await writeFile(join(outside, 'secrets.json'), '{"secret":"symlinked-secret"}');
  siteDist = await createFakeSiteDist();
  await writeDotfilesAndLinks(siteDist);
  appDist = await createFakeAppDist();
  await writeDotfilesAndLinks(appDist);

  [server, hosted] = await Promise.all([
    startServer({
      database: 'pglite',
      env: {
        ...AUTH_ENV,
        ...LIMITS,
        APP_ID: DEFAULT_APP_ID,
        PROJECT_DIR: projectDir,
        SITE_DIST: siteDist,
        OUTBOUND_PRIVATE_HOSTS: `${api1.hostPort},${elsewhere.hostPort}`,
        INTEGRATION_SECRET_EDGE_TOKEN: SECRET,
        INTEGRATION_SECRET_EDGE_KEY: KEY_SECRET,
      },
    }),
    startServer({ database: 'pglite', env: { SITE_DIST: appDist, APP_ID: DEFAULT_APP_ID } }),
  ]);
});

test.afterAll(async () => {
  await Promise.all([server?.stop(), hosted?.stop(), api1?.close(), elsewhere?.close()]);
  for (const folder of [projectDir, siteDist, appDist, outside]) {
    if (folder) await rm(folder, { recursive: true, force: true });
  }
});

test.describe('point 6: timeouts and per-address caps', () => {
  test('a stalled request body is answered 408 and closed after REQUEST_TIMEOUT_MS', async () => {
    const stalled = await openRaw(
      server.port,
      '127.0.0.2',
      `POST ${APP}/entities/Todo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":`,
    );
    await stalled.closed;
    expect(stalled.received()).toMatch(/^HTTP\/1\.1 408/);
    expect(stalled.received()).toContain('arrived too slowly');
  });

  test('a body dripping slower than REQUEST_MIN_BYTES_PER_SECOND is cut too', async () => {
    const drip = await openRaw(
      server.port,
      '127.0.0.3',
      `POST ${APP}/entities/Todo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n`,
    );
    const timer = setInterval(() => drip.socket.write(' '), 100);
    await drip.closed.finally(() => clearInterval(timer));
    expect(drip.received()).toMatch(/^HTTP\/1\.1 408/);
  });

  test('a request answered before its body arrived is closed, so the rest cannot trickle in for ever', async () => {
    const held = await openRaw(
      server.port,
      '127.0.0.7',
      'GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\nx',
    );
    const timer = setInterval(() => held.socket.write('x'), 200);
    await held.closed.finally(() => clearInterval(timer));
    expect(held.received()).toMatch(/^HTTP\/1\.1 200/);
    expect(held.received().toLowerCase()).toContain('connection: close');
  });

  test('an upload cut off by the body deadline leaves no open file and no partial file behind', async () => {
    const { token } = await createUser(server, { email: uniqueEmail('edge-cut-upload') });
    const boundary = 'cutupload';
    const cut = await openRaw(
      server.port,
      '127.0.0.8',
      [
        `POST ${APP}/integration-endpoints/Core/UploadFile HTTP/1.1`,
        'Host: x',
        `Authorization: Bearer ${token}`,
        `Content-Type: multipart/form-data; boundary=${boundary}`,
        'Content-Length: 100000',
        '',
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\n${'x'.repeat(2000)}`,
      ].join('\r\n'),
    );
    await cut.closed;
    expect(cut.received()).toMatch(/^HTTP\/1\.1 408/);
    const partials = async () => {
      const found: string[] = [];
      for (const folder of await readdir(join(server.dataDir, 'files')).catch(() => [])) {
        for (const name of await readdir(join(server.dataDir, 'files', folder)).catch(() => [])) {
          if (name.endsWith('.partial')) found.push(name);
        }
      }
      for (const fd of await readdir(`/proc/${server.pid}/fd`).catch(() => [])) {
        const target = await readlink(`/proc/${server.pid}/fd/${fd}`).catch(() => '');
        if (target.endsWith('.partial')) found.push(target);
      }
      return found;
    };
    await expect.poll(partials).toEqual([]);
  });

  test('headers that never end are cut after HTTP_HEADERS_TIMEOUT_MS', async () => {
    const slowloris = await openRaw(
      server.port,
      '127.0.0.4',
      'GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: 1\r\n',
    );
    await slowloris.closed;
    expect(slowloris.received()).not.toContain('200 OK');
  });

  test('one address holds at most MAX_CONNECTIONS_PER_IP connections; the excess is answered 429', async () => {
    const held = await Promise.all(Array.from({ length: 20 }, () => openRaw(server.port, '127.0.0.5')));
    const excess = await Promise.all(
      Array.from({ length: 10 }, () =>
        openRaw(server.port, '127.0.0.5', 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'),
      ),
    );
    await Promise.all(excess.map((exchange) => exchange.closed));
    for (const exchange of excess) expect(exchange.received()).toMatch(/^HTTP\/1\.1 429/);
    // Another address is not affected, and a held connection still works.
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    held[0]?.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await held[0]?.closed;
    expect(held[0]?.received()).toMatch(/^HTTP\/1\.1 200/);
    for (const exchange of held) exchange.socket.destroy();
  });

  test('one address holds at most REALTIME_MAX_SOCKETS_PER_IP sockets', async () => {
    const sockets = [];
    for (let index = 0; index < 8; index++) sockets.push(await wsHandshake(server.port, '127.0.0.6'));
    const statuses = await Promise.all(sockets.map((socket) => socket.status));
    expect(statuses.filter((line) => line.includes(' 101 '))).toHaveLength(5);
    for (const socket of sockets) socket.socket.destroy();
  });

  test('a flood of handshakes is refused past the rate, and /healthz stays responsive', async () => {
    const flood = async () => {
      const statuses: string[] = [];
      await Promise.all(
        Array.from({ length: 10 }, async () => {
          for (let index = 0; index < 30; index++) {
            const socket = await wsHandshake(server.port, '127.0.0.7');
            statuses.push(await socket.status);
            socket.socket.destroy();
          }
        }),
      );
      return statuses;
    };
    const attack = flood();
    const slowest = await slowestAnswerDuring(server.url, attack);
    const statuses = await attack;
    // Handshakes one after another never hold more than the cap: only the rate stops them.
    expect(statuses.filter((line) => line.includes(' 101 ')).length).toBeLessThanOrEqual(30);
    expect(statuses.filter((line) => !line.includes(' 101 ')).length).toBeGreaterThanOrEqual(270);
    expect(slowest).toBeLessThan(onThisMachine(200));
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});

test.describe('point 8: custom integrations', () => {
  const call = (slug: string, operation: string, body: unknown = {}) =>
    api(server, `${APP}/integrations/custom/${slug}/${operation}`, { body });

  test('a redirect to another origin does not carry the secret (Authorization or a key header)', async () => {
    for (const slug of ['bearer', 'keyed']) {
      const before = elsewhere.seen.length;
      await call(slug, 'redirect');
      for (const request of elsewhere.seen.slice(before)) {
        expect(JSON.stringify(request.headers)).not.toContain(SECRET);
        expect(JSON.stringify(request.headers)).not.toContain(KEY_SECRET);
      }
    }
    expect(elsewhere.seen.map((request) => JSON.stringify(request.headers)).join()).not.toMatch(
      /do-not-leak/,
    );
    // Within the same origin the secret still goes along.
    const moved = await call('bearer', 'sameOrigin');
    expect(moved.status).toBe(200);
    expect(api1.seen.at(-1)).toMatchObject({ url: '/v1/items/moved' });
    expect(api1.seen.at(-1)?.headers.authorization).toBe(`Bearer ${SECRET}`);
  });

  test('path parameters ".", ".." and empty are refused, nothing is sent', async () => {
    const before = api1.seen.length;
    for (const id of ['..', '.', '']) {
      const answer = await call('bearer', 'getItem', { path_params: { id } });
      expect(answer.status, JSON.stringify(id)).toBe(400);
      expect(String(answer.json.message)).toContain('path_params.id');
    }
    expect(api1.seen.length).toBe(before);
    // An ordinary value with dots and slashes stays one encoded segment.
    const plain = await call('bearer', 'getItem', { path_params: { id: '../../z' } });
    expect(plain.status).toBe(200);
    expect(api1.seen.at(-1)?.url).toBe('/v1/items/..%2F..%2Fz');
  });
});

test.describe('point 12: new 500s answer 4xx/502', () => {
  // FIXME: the upload waits for a part that never ends instead of failing (handover note in the report).
  test('a multipart upload without its closing boundary is a 400', async () => {
    const { token } = await createUser(server, { email: uniqueEmail('edge-upload') });
    const boundary = `edge${Date.now()}`;
    const body =
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n` +
      `Content-Type: text/plain\r\n\r\n${'hello '.repeat(100)}`;
    const response = await fetch(`${server.url}${APP}/integration-endpoints/Core/UploadFile`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      body,
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toContain('multipart');
  });

  test('file URLs: an unresolvable host is a 502, LOCALHOST. and ::7f00:1 are refused (400)', async () => {
    const { token } = await createUser(server, { email: uniqueEmail('edge-extract') });
    const extract = (fileUrl: string) =>
      api(server, `${APP}/integration-endpoints/Core/ExtractDataFromUploadedFile`, {
        token,
        body: { file_url: fileUrl, json_schema: { type: 'object', properties: { a: { type: 'string' } } } },
      });
    const unresolved = await extract('http://no-such-host.invalid/table.csv');
    expect(unresolved.status).toBe(502);
    expect(String(unresolved.json.message)).toContain('no-such-host.invalid');
    for (const url of [`http://LOCALHOST.:${server.port}/healthz`, 'http://[::7f00:1]:80/x.csv']) {
      const refused = await extract(url);
      expect(refused.status, url).toBe(400);
      expect(refused.json.extra_data, url).toEqual({ reason: 'outbound_refused' });
    }
  });
});

test('point 13: the request log holds no token, reset or invite token, or file signature', async () => {
  const secrets = ['access-TOKEN-abc123', 'reset-TOKEN-def456', 'invite-TOKEN-ghi789', 'deadbeefSIGNATURE'];
  await fetch(`${server.url}/trips?access_token=${secrets[0]}`);
  await fetch(`${server.url}/login?reset_token=${secrets[1]}`);
  await fetch(`${server.url}/login?invite_token=${secrets[2]}&from_url=%2F`);
  await fetch(`${server.url}${APP}/files/private/${'0'.repeat(32)}/a.pdf?expires=1&signature=${secrets[3]}`);
  await fetch(`${server.url}/login?from_url=${encodeURIComponent(`/x?access_token=${secrets[0]}`)}`);
  await expect.poll(() => server.logs()).toContain('/login?from_url=');
  for (const secret of secrets) expect(server.logs()).not.toContain(secret);
});

test.describe('point 16: build folders serve no dotfile and nothing outside them', () => {
  for (const which of ['own site', 'hosted app'] as const) {
    test(`${which}: /.env, /.git/config and symlinks out of SITE_DIST are 404`, async () => {
      const target = which === 'own site' ? server : hosted;
      for (const path of [
        '/.env',
        '/.git/config',
        '/linked-secrets.json',
        '/linked-dir/secrets.json',
        '/%2eenv',
      ]) {
        const response = await fetch(`${target.url}${path}`);
        const text = await response.text();
        expect(response.status, path).toBe(404);
        expect(text, path).not.toMatch(/dotenv-secret|git-config-secret|symlinked-secret/);
      }
      // The build's own files are still served.
      expect(
        (await fetch(`${target.url}/assets/${which === 'own site' ? 'app-abc123.js' : 'index-Dq3k9LmZ.js'}`))
          .status,
      ).toBe(200);
    });
  }
});
