// Backend functions through a real server and real Deno processes (e2e/fixtures/functions/base44): the SDK's
// `functions.invoke` and `functions.fetch`, what a function receives, user and service-role calls back into
// the API, function → function, multipart in and binary out, secrets, and each failure the server survives
// (compile error, crash, timeout, heap limit). The sandbox's refusals are in functions-sandbox.spec.ts.
import { spawnSync } from 'node:child_process';
import { expect, test } from '../../support/test';
import { createUser, SERVICE_TOKEN, uniqueEmail, userClient } from '../../support/auth-helpers';
import { waitForMail } from '../../support/outbox';
import { DEFAULT_APP_ID } from '../../support/sdk-client';
import { FUNCTIONS_ENV } from '../../support/functions-project';
import { startServer, type RunningServer } from '../../support/server-process';

// Functions do not depend on the store: one run (PGlite) keeps CI time down.
test.describe.configure({ mode: 'serial' });

let server: RunningServer;
const fn = (name: string) => `${server.url}/api/apps/${DEFAULT_APP_ID}/functions/${name}`;

test.beforeAll(async () => {
  server = await startServer({ env: FUNCTIONS_ENV });
});

test.afterAll(async () => {
  // Every function process is the server's child: none may outlive it (they run as another user), however
  // its shutdown ends.
  const children = childPids(server.pid);
  await server.stop();
  // SIGKILLed with the server's exit; they may take a moment to be reaped.
  await expect.poll(() => children.filter(isRunning), { timeout: 5000 }).toEqual([]);
});

function childPids(parent: number): number[] {
  const listed = spawnSync('ps', ['-o', 'pid=', '--ppid', String(parent)], { encoding: 'utf8' }).stdout;
  return listed
    .split('\n')
    .map((line) => Number(line.trim()))
    .filter((pid) => pid > 0);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user (a function runs as nobody when tests run as root).
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

test('auth.me and user-scoped or service-role entity calls from inside a function (createClientFromRequest)', async () => {
  test.setTimeout(120_000);
  const alice = await createUser(server, { email: uniqueEmail('fn-alice') });
  const bob = await createUser(server, { email: uniqueEmail('fn-bob') });
  const asAlice = userClient(server, alice.token);
  const asBob = userClient(server, bob.token);

  const anonymous = await userClient(server).functions.invoke('whoAmI', {});
  expect(anonymous.data).toEqual({ greeting: 'hello stranger', email: null });

  const created = await asAlice.functions.invoke('whoAmI', { create: 'from alice' });
  expect(created.data).toMatchObject({ greeting: `hello ${alice.user.email}`, mine: { text: 'from alice' } });
  expect((created.data as { mine: { created_by: string } }).mine.created_by).toBe(alice.user.email);
  await asBob.functions.invoke('whoAmI', { create: 'from bob' });

  // The user's own client sees only the user's notes; the service role sees every one.
  const counts = await asBob.functions.invoke('whoAmI', { listMine: true, listAll: true });
  expect(counts.data).toMatchObject({ mineCount: 1, allCount: 2 });
});

test('a function mails a user of the app as the service role (asServiceRole.integrations.Core.SendEmail)', async () => {
  const reader = await createUser(server, { email: uniqueEmail('fn-mail') });
  const answer = await userClient(server).functions.invoke('notify', {
    to: reader.user.email,
    subject: 'Trip filed',
    body: '<p>Your trip plan is <b>filed</b>.</p>',
  });
  expect(answer.status).toBe(200);
  const mail = await waitForMail(server.dataDir, reader.user.email);
  expect(mail.subject).toBe('Trip filed');
  // Someone who is not a user of the app is refused, as on the hosted platform; the function sees why.
  const stranger = await fetch(fn('notify'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ to: 'nobody@example.com', subject: 'x', body: 'y' }),
  });
  expect(stranger.status).toBe(502);
  expect(await stranger.json()).toMatchObject({ status: 400 });
});

test('a function calls another through the API with the caller’s token', async () => {
  const alice = await createUser(server, { email: uniqueEmail('fn-chain') });
  const answer = await userClient(server, alice.token).functions.invoke('caller', {});
  expect(answer.data).toEqual({
    via: 'caller',
    inner: { greeting: `hello ${alice.user.email}`, email: alice.user.email },
  });
});

test('the function receives the platform headers, never the visitor’s; functions.fetch keeps path and query', async () => {
  const response = await fetch(`${fn('hello')}/sub?x=1`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: 'Bearer caller-token',
      'base44-app-id': 'evil',
      'base44-api-url': 'http://evil.example',
      'base44-service-authorization': 'Bearer forged',
      'base44-state': 'spoofed',
      'x-data-env': 'dev',
      'base44-functions-version': 'v7',
      'x-custom': 'kept',
    },
    body: '{"a":1}',
  });
  expect(response.status).toBe(200);
  const seen = (await response.json()) as {
    method: string;
    path: string;
    query: string;
    body: string;
    headers: Record<string, string>;
  };
  expect(seen).toMatchObject({ method: 'POST', path: '/sub', query: '?x=1', body: '{"a":1}' });
  expect(seen.headers).toMatchObject({
    authorization: 'Bearer caller-token',
    'base44-app-id': DEFAULT_APP_ID,
    'base44-functions-version': 'v7',
    'x-custom': 'kept',
  });
  expect(seen.headers['base44-api-url']).toMatch(/^http:\/\/127\.0\.0\.44:\d+$/);
  expect(seen.headers['base44-service-authorization']).toMatch(/^Bearer ey/);
  expect(seen.headers['base44-state']).toBeUndefined();
  expect(seen.headers['x-data-env']).toBeUndefined();

  // The minted service token ends with its call (the function's own calls use it while it runs), and the
  // static one is not leaked.
  expect(seen.headers['base44-service-authorization']).not.toContain(SERVICE_TOKEN);
  const asService = await fetch(`${server.url}/api/apps/${DEFAULT_APP_ID}/entities/Note`, {
    headers: { authorization: seen.headers['base44-service-authorization'] as string },
  });
  expect(asService.status).toBe(401);

  await expect
    .poll(() => server.logs())
    .toMatch(/"function":"hello","status":200,"ms":\d+,"reqId":"[^"]+","msg":"function call"/);

  const fetched = await userClient(server).functions.fetch('/hello/a/b?q=2');
  expect(await fetched.json()).toMatchObject({ method: 'GET', path: '/a/b', query: '?q=2' });
});

test('multipart in, binary out (a streamed PDF)', async () => {
  const bytes = new Uint8Array(200_000).map((_, index) => (index * 7) % 256);
  const form = new FormData();
  form.append('upload', new Blob([bytes], { type: 'application/pdf' }), 'scan.pdf');
  form.append('note', 'hi');
  const uploaded = await fetch(fn('echo-upload'), { method: 'POST', body: form });
  expect(uploaded.status).toBe(200);
  expect(await uploaded.json()).toMatchObject({
    files: [
      { field: 'upload', name: 'scan.pdf', type: 'application/pdf', size: 200_000 },
      { field: 'note', text: 'hi' },
    ],
  });

  const pdf = await fetch(`${fn('pdf')}?size=300000`);
  expect(pdf.status).toBe(200);
  expect(pdf.headers.get('content-type')).toBe('application/pdf');
  const body = Buffer.from(await pdf.arrayBuffer());
  expect(body.length).toBe(300_000);
  expect(body.subarray(0, 8).toString()).toBe('%PDF-1.4');
  expect(body[299_999]).toBe(299_999 % 251);
});

test('50 concurrent calls all answer (a small pool shares its processes)', async () => {
  const answers = await Promise.all(
    Array.from({ length: 50 }, (_, index) =>
      fetch(`${fn('hello')}?n=${index}`).then(async (response) => ({
        status: response.status,
        query: ((await response.json()) as { query: string }).query,
      })),
    ),
  );
  expect(answers.filter((answer) => answer.status !== 200)).toEqual([]);
  expect(new Set(answers.map((answer) => answer.query)).size).toBe(50);
});

test('a body over FUNCTION_MAX_BODY_MB is refused with 413', async () => {
  const response = await fetch(fn('hello'), { method: 'POST', body: new Uint8Array(1024 * 1024 + 10) });
  expect(response.status).toBe(413);
  // Streamed without a length, it is cut off once past the limit: 413 as well, and the function lives on.
  const chunk = new Uint8Array(256 * 1024);
  // Endless until answered: then the request is aborted and the stream ends, so nothing keeps pulling it.
  let answered = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (answered) controller.close();
      else controller.enqueue(chunk);
    },
  });
  const abort = new AbortController();
  const streamed = await fetch(fn('echo-upload'), {
    method: 'POST',
    body: stream,
    headers: { 'content-type': 'application/octet-stream' },
    duplex: 'half',
    signal: abort.signal,
  } as RequestInit);
  answered = true;
  abort.abort();
  expect(streamed.status).toBe(413);
  expect((await fetch(fn('hello'))).status).toBe(200);
});

test('secrets reach functions as environment variables, and a change restarts them', async () => {
  const setSecret = (value: string) =>
    fetch(`${server.url}/api/apps/${DEFAULT_APP_ID}/admin/secrets/FN_SECRET`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${SERVICE_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ value }),
    });
  const read = async () =>
    (
      (await userClient(server).functions.invoke('whoAmI', { secret: 'FN_SECRET' })).data as {
        secret: string | null;
      }
    ).secret;
  expect((await setSecret('first value')).status).toBe(200);
  expect(await read()).toBe('first value');
  expect((await setSecret('second value')).status).toBe(200);
  await expect.poll(read).toBe('second value');
  expect(server.logs()).not.toContain('second value');
});

test('unknown function 404; a compile error is 502, detailed for admins only', async () => {
  const unknown = await fetch(fn('nope'), { method: 'POST' });
  expect(unknown.status).toBe(404);
  expect(await unknown.json()).toEqual({ message: 'Function nope not found' });

  const generic = await fetch(fn('broken'), { method: 'POST' });
  expect(generic.status).toBe(502);
  expect(await generic.json()).toEqual({ message: 'Function broken failed to load' });

  const admin = await createUser(server, { email: uniqueEmail('fn-admin'), role: 'admin' });
  const detailed = await fetch(fn('broken'), {
    method: 'POST',
    headers: { authorization: `Bearer ${admin.token}` },
  });
  expect(detailed.status).toBe(502);
  const body = (await detailed.json()) as { detail: string };
  expect(body.detail).toMatch(/broken\/entry\.ts/);
});

test('a module may export default its handler (a function or { fetch }); one that serves nothing says so', async () => {
  const viaFunction = await fetch(fn('default-function'), { method: 'POST', body: 'hi' });
  expect(await viaFunction.json()).toEqual({ shape: 'export default function', method: 'POST', body: 'hi' });
  const viaFetch = await fetch(fn('default-fetch'));
  expect(await viaFetch.json()).toEqual({ shape: 'export default { fetch }', method: 'GET' });

  const admin = await createUser(server, { email: uniqueEmail('fn-no-handler'), role: 'admin' });
  const none = await fetch(fn('no-handler'), { headers: { authorization: `Bearer ${admin.token}` } });
  expect(none.status).toBe(502);
  const body = (await none.json()) as { detail: string };
  expect(body.detail).toContain('has no handler');
  expect(body.detail).not.toContain('exited before it was ready');
});

test('a crash is 502 and the next call runs a fresh process', async () => {
  const crashed = await fetch(`${fn('crash')}?crash`);
  expect(crashed.status).toBe(502);
  const next = await fetch(fn('crash'));
  expect(next.status).toBe(200);
});

test('FUNCTION_TIMEOUT_S: 504 and the process is killed; the heap limit: 502; the server lives on', async () => {
  const started = Date.now();
  const slow = await fetch(fn('slow'));
  expect(slow.status).toBe(504);
  expect(Date.now() - started).toBeLessThan(10_000);
  // The spinning process was killed: a fresh one answers.
  expect((await fetch(`${fn('slow')}?quick`)).status).toBe(200);

  expect((await fetch(`${fn('heap')}?small`)).status).toBe(200); // started: the limit alone is measured
  const heap = await fetch(fn('heap'));
  expect(heap.status).toBe(502);
  expect((await fetch(`${fn('heap')}?small`)).status).toBe(200);
  expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
});

test('a decoded space or euro sign in a functions.fetch path is passed on re-encoded; the server lives on', async () => {
  const response = await fetch(`${server.url}/api/functions/hello/a%20b/%E2%82%AC?x=1`);
  expect(response.status).toBe(200);
  expect(await response.json()).toMatchObject({ path: '/a%20b/%E2%82%AC', query: '?x=1' });
  // Past FUNCTION_TIMEOUT_S (3 s): such a call once lost its lease, and its timer then ended the server.
  await new Promise((resolve) => setTimeout(resolve, 3500));
  expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
});

test('a call that times out retires its process: another call on that process still gets its answer', async () => {
  // One process per function, so the two calls share it; the first idles past the 4 s timeout.
  const shared = await startServer({
    env: { ...FUNCTIONS_ENV, FUNCTION_INSTANCES: '1', FUNCTION_TIMEOUT_S: '4' },
  });
  try {
    const slow = (query: string) => fetch(`${shared.url}/api/apps/${DEFAULT_APP_ID}/functions/slow?${query}`);
    expect((await slow('quick')).status).toBe(200);
    const stuck = slow('wait=10000');
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const meanwhile = slow('wait=3000'); // answers 1 s after the first call's timeout
    expect((await stuck).status).toBe(504);
    const answer = await meanwhile;
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ waited: 3000 });
    expect((await slow('quick')).status).toBe(200); // a fresh process serves the next call
  } finally {
    await shared.stop();
  }
});
