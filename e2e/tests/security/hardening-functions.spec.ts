// Functions and automations reach none of the server's limits (issue 18, points 4, 14 and 15), each attack
// run by a real Deno function of a temporary project against a real server process:
// - a function printing 600 MB without a newline (which crashed the server: readline's string outgrew V8's
//   limit) leaves it up and responsive, and its log says the output was cut;
// - a function opening hundreds of connections to the API address gets at most FUNCTIONS_MAX_CONNECTIONS
//   served and runs out of its own descriptors (FUNCTION_MAX_OPEN_FILES), not the server's;
// - a call's minted service token is refused on the admin API and SSO, and ends with the call;
// - a due schedule runs while a burst of entity automation runs is queued, and the queue is capped.
import { chmod, cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../../support/test';
import { api, SERVICE_TOKEN } from '../../support/auth-helpers';
import { FUNCTIONS_ENV, FUNCTIONS_PROJECT } from '../../support/functions-project';
import { onThisMachine, slowestAnswerDuring } from '../../support/responsiveness';
import { DEFAULT_APP_ID } from '../../support/sdk-client';
import { startServer, type RunningServer } from '../../support/server-process';

const SDK = 'npm:@base44/sdk@0.8.20';
/** MAX_CONNECTIONS is the server's FUNCTIONS_MAX_CONNECTIONS here (small: the function opens far more). */
const MAX_CONNECTIONS = 20;
/** MAX_QUEUED is the server's AUTOMATION_MAX_QUEUED in the automations test; BURST is what one write queues. */
const MAX_QUEUED = 20;
const BURST = 200;

/** FUNCTIONS are the attacks, one function each (entry.ts source by folder name). */
const FUNCTIONS: Record<string, string> = {
  // 600 MB in 1 MiB writes, no newline until the end: more than a string may hold.
  flood: `Deno.serve(async (req) => {
  const mb = Number(new URL(req.url).searchParams.get('mb') ?? '600');
  const chunk = new TextEncoder().encode('x'.repeat(1 << 20));
  for (let i = 0; i < mb; i += 1) {
    for (let n = 0; n < chunk.length; ) n += Deno.stdout.writeSync(chunk.subarray(n));
  }
  console.log('\\nflood done');
  return Response.json({ wrote: mb });
});`,
  // Holds as many connections to the API as it can, then asks /healthz on each.
  sockets: `Deno.serve(async (req) => {
  const target = new URL(req.headers.get('base44-api-url') ?? '');
  const want = Number(new URL(req.url).searchParams.get('n') ?? '400');
  const conns = [];
  let error = '';
  for (let i = 0; i < want; i += 1) {
    try {
      conns.push(await Deno.connect({ hostname: target.hostname, port: Number(target.port) }));
    } catch (e) {
      error = String(e);
      break;
    }
  }
  const ask = new TextEncoder().encode('GET /healthz HTTP/1.1\\r\\nHost: api\\r\\n\\r\\n');
  const answers = await Promise.all(conns.map(async (conn) => {
    try {
      await conn.write(ask);
      const buffer = new Uint8Array(64);
      const read = await Promise.race([conn.read(buffer), new Promise((done) => setTimeout(() => done(null), 3000))]);
      return typeof read === 'number' && new TextDecoder().decode(buffer.subarray(0, read)).startsWith('HTTP/1.1 200');
    } catch {
      return false;
    }
  }));
  for (const conn of conns) try { conn.close(); } catch { /* closed by the server */ }
  return Response.json({ opened: conns.length, answered: answers.filter(Boolean).length, error });
});`,
  // A debug function: tries its token on the operator API, SSO and data, and echoes it.
  'token-echo': `Deno.serve(async (req) => {
  const base = req.headers.get('base44-api-url') + '/api/apps/' + req.headers.get('base44-app-id');
  const token = req.headers.get('base44-service-authorization') ?? '';
  const headers = { authorization: token, 'content-type': 'application/json' };
  const admin = await fetch(base + '/admin/users', {
    method: 'POST',
    headers,
    body: JSON.stringify({ email: 'planted-inside@example.test', password: 'correct horse battery', role: 'admin' }),
  });
  const sso = await fetch(base + '/auth/sso/accesstoken/someone', { headers });
  const data = await fetch(base + '/entities/Audit', { headers });
  // The console's endpoints (the app's admins or SERVICE_TOKEN): refused to a call's token too.
  const console = [];
  for (const [method, path, body] of [
    ['PUT', '/admin/secrets/PLANTED', { value: 'x' }],
    ['DELETE', '/admin/secrets/PLANTED', undefined],
    ['PUT', '/admin/settings', { visibility: 'public_without_login' }],
    ['GET', '/admin/users', undefined],
    ['GET', '/admin/overview', undefined],
    ['GET', '/admin/secrets', undefined],
    ['GET', '/admin/entities', undefined],
    ['GET', '/admin/entities/counts', undefined],
    ['GET', '/admin/analytics?days=7', undefined],
    ['GET', '/admin/entities/Audit/view-as/someone', undefined],
    ['POST', '/admin/entities/Audit/records', { note: 'planted' }],
    ['DELETE', '/admin/entities/Audit/records', { ids: ['x'] }],
    ['POST', '/admin/users/invite', { user_email: 'planted@example.test', role: 'admin' }],
    ['PATCH', '/admin/users/someone', { role: 'admin' }],
    ['POST', '/admin/users/someone/password-reset', undefined],
    ['GET', '/admin/logs/functions', undefined],
    ['GET', '/admin/logs/functions/1', undefined],
    ['GET', '/admin/logs/page-views', undefined],
    ['GET', '/admin/logs/audit', undefined],
    ['GET', '/admin/logs/live', undefined],
    ['GET', '/admin/functions', undefined],
    ['POST', '/admin/functions/hello/invoke', { body: {} }],
    ['POST', '/admin/functions/hello/schedules/soon/run', undefined],
    ['GET', '/admin/agents', undefined],
    ['GET', '/admin/agents/conversations', undefined],
    ['GET', '/admin/agents/conversations/some-id', undefined],
    ['GET', '/admin/agents/conversations/some-id/live', undefined],
    ['POST', '/admin/agents/helper/test-conversations', undefined],
    ['POST', '/admin/agents/conversations/some-id/test-messages', { content: 'planted' }],
    ['GET', '/admin/integrations', undefined],
    ['POST', '/admin/integrations/llm/check', {}],
    ['POST', '/admin/integrations/custom/any/try', { operation: 'get:/x' }],
    ['POST', '/admin/integrations/files/prune', { dry_run: false, min_age_hours: 0 }],
  ]) {
    const answer = await fetch(base + path, { method, headers, body: body && JSON.stringify(body) });
    console.push(method + ' ' + path + ' ' + answer.status + (await answer.text(), ''));
  }
  return Response.json({
    token,
    console,
    admin: { status: admin.status, message: (await admin.json()).message },
    sso: sso.status + (await sso.text(), ''),
    data: data.status + (await data.text(), ''),
  });
});`,
};

/** project copies the functions fixture with extra functions (and function.jsonc files) into a temp folder. */
async function project(extra: Record<string, { entry: string; config?: object }>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'queen-hardening-fn-'));
  // Functions run as nobody when the tests run as root: their code must be readable by others.
  await chmod(dir, 0o755);
  await cp(FUNCTIONS_PROJECT, dir, { recursive: true });
  for (const [name, { entry, config }] of Object.entries(extra)) {
    await mkdir(join(dir, 'functions', name));
    await writeFile(join(dir, 'functions', name, 'entry.ts'), entry);
    if (config) await writeFile(join(dir, 'functions', name, 'function.jsonc'), JSON.stringify(config));
  }
  return dir;
}

const call = (server: RunningServer, name: string, query = '') =>
  fetch(`${server.url}/api/apps/${DEFAULT_APP_ID}/functions/${name}${query}`, { method: 'POST' });

test.describe('function output, connections and tokens', () => {
  test.describe.configure({ mode: 'serial' });
  let server: RunningServer;
  let dir: string;

  test.beforeAll(async () => {
    dir = await project(
      Object.fromEntries(Object.entries(FUNCTIONS).map(([name, entry]) => [name, { entry }])),
    );
    server = await startServer({
      env: {
        ...FUNCTIONS_ENV,
        PROJECT_DIR: dir,
        FUNCTION_TIMEOUT_S: '30',
        FUNCTIONS_MAX_CONNECTIONS: String(MAX_CONNECTIONS),
        APP_LOG_FLUSH_MS: '200',
      },
    });
  });

  test.afterAll(async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  });

  test('600 MB without a newline: the server stays up and responsive, and the log says the output was cut', async () => {
    test.setTimeout(120_000);
    const attack = call(server, 'flood');
    const slowest = await slowestAnswerDuring(server.url, attack);
    const answer = await attack;
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ wrote: 600 });
    expect(slowest).toBeLessThanOrEqual(onThisMachine(200));
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);

    type Logged = { output: { line: string }[] };
    let entry: Logged | undefined;
    await expect
      .poll(async () => {
        const logs = await api(server, `/api/app-logs/${DEFAULT_APP_ID}?function=flood`, {
          method: 'GET',
          token: SERVICE_TOKEN,
        });
        entry = (logs.json.items as Logged[] | undefined)?.[0];
        return entry !== undefined;
      })
      .toBe(true);
    const lines = (entry as Logged).output.map((item) => item.line);
    expect(lines).toContainEqual(
      expect.stringContaining('[output cut: the line above is longer than 64 KiB'),
    );
    expect(lines).toContain('flood done');
    // What was dropped is counted in the server log: all of the 600 MiB but the 64 KiB kept.
    expect(server.logs()).toContain(`"droppedBytes":${600 * 1024 * 1024 - 64 * 1024}`);
  });

  test('hundreds of connections to the API: at most FUNCTIONS_MAX_CONNECTIONS served, descriptors capped', async () => {
    test.setTimeout(60_000);
    const answer = await call(server, 'sockets', '?n=400');
    expect(answer.status).toBe(200);
    const result = (await answer.json()) as { opened: number; answered: number; error: string };
    // Its own descriptors ran out (FUNCTION_MAX_OPEN_FILES, 256 by default), not the server's.
    expect(result.opened).toBeLessThan(256);
    expect(result.error).toMatch(/Too many open files/);
    expect(result.answered).toBeGreaterThan(0);
    expect(result.answered).toBeLessThanOrEqual(MAX_CONNECTIONS);
    await expect
      .poll(() => server.logs())
      .toContain('function connections to the API refused: too many open');
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  test("a call's token is refused on the admin API and SSO, and ends with its call", async () => {
    const answer = await call(server, 'token-echo');
    expect(answer.status).toBe(200);
    const seen = (await answer.json()) as {
      token: string;
      admin: { status: number; message: string };
      console: string[];
      sso: string;
      data: string;
    };
    // During the call: data as the service role, but no operator API and no SSO token.
    expect(seen.data).toBe('200');
    expect(seen.admin).toEqual({ status: 403, message: expect.stringContaining('SERVICE_TOKEN') });
    expect(seen.sso).toBe('403');
    expect(seen.console).toEqual([
      'PUT /admin/secrets/PLANTED 403',
      'DELETE /admin/secrets/PLANTED 403',
      'PUT /admin/settings 403',
      'GET /admin/users 403',
      'GET /admin/overview 403',
      'GET /admin/secrets 403',
      'GET /admin/entities 403',
      'GET /admin/entities/counts 403',
      'GET /admin/analytics?days=7 403',
      'GET /admin/entities/Audit/view-as/someone 403',
      'POST /admin/entities/Audit/records 403',
      'DELETE /admin/entities/Audit/records 403',
      'POST /admin/users/invite 403',
      'PATCH /admin/users/someone 403',
      'POST /admin/users/someone/password-reset 403',
      'GET /admin/logs/functions 403',
      'GET /admin/logs/functions/1 403',
      'GET /admin/logs/page-views 403',
      'GET /admin/logs/audit 403',
      'GET /admin/logs/live 403',
      'GET /admin/functions 403',
      'POST /admin/functions/hello/invoke 403',
      'POST /admin/functions/hello/schedules/soon/run 403',
      'GET /admin/agents 403',
      'GET /admin/agents/conversations 403',
      'GET /admin/agents/conversations/some-id 403',
      'GET /admin/agents/conversations/some-id/live 403',
      'POST /admin/agents/helper/test-conversations 403',
      'POST /admin/agents/conversations/some-id/test-messages 403',
      'GET /admin/integrations 403',
      'POST /admin/integrations/llm/check 403',
      'POST /admin/integrations/custom/any/try 403',
      'POST /admin/integrations/files/prune 403',
    ]);
    // Echoed, after the call: nothing at all.
    const token = seen.token.replace(/^Bearer /, '');
    const planted = await api(server, `/api/apps/${DEFAULT_APP_ID}/admin/users`, {
      token,
      body: { email: 'planted-after@example.test', password: 'correct horse battery', role: 'admin' },
    });
    expect(planted.status).toBe(401);
    const read = await api(server, `/api/apps/${DEFAULT_APP_ID}/entities/Audit`, { method: 'GET', token });
    expect(read.status).toBe(401);
    const sso = await api(server, `/api/apps/${DEFAULT_APP_ID}/auth/sso/accesstoken/someone`, {
      method: 'GET',
      token,
    });
    expect(sso.status).toBe(401);
  });
});

test('a due schedule runs while a burst of entity automation runs is queued, and the queue is capped', async () => {
  test.setTimeout(120_000);
  // Each entity run takes a second: the burst, even capped, outlasts the schedule's due time.
  const onPing = `import { createClientFromRequest } from '${SDK}';
Deno.serve(async (req) => {
  const base44 = createClientFromRequest(req);
  const body = await req.json();
  if (body.event) await new Promise((done) => setTimeout(done, 1000));
  await base44.asServiceRole.entities.Audit.create({
    source: body.event ? 'entity' : 'scheduled',
    note_id: body.event?.entity_id ?? '',
  });
  return Response.json({ ok: true });
});`;
  const dir = await project({
    'on-ping': {
      entry: onPing,
      config: {
        name: 'onPing',
        automations: [
          { name: 'each ping', type: 'entity', entity_name: 'Ping', event_types: ['create'] },
          {
            name: 'soon',
            type: 'scheduled',
            schedule_mode: 'one-time',
            one_time_date: new Date(Date.now() + 10_000).toISOString(),
          },
        ],
      },
    },
  });
  await writeFile(
    join(dir, 'entities/ping.jsonc'),
    JSON.stringify({ name: 'Ping', type: 'object', properties: { n: { type: 'number' } } }),
  );
  const server = await startServer({
    env: { ...FUNCTIONS_ENV, PROJECT_DIR: dir, AUTOMATION_MAX_QUEUED: String(MAX_QUEUED) },
  });
  try {
    const audits = async () => {
      const result = await api(server, `/api/apps/${DEFAULT_APP_ID}/entities/Audit?limit=1000`, {
        method: 'GET',
        token: SERVICE_TOKEN,
      });
      return result.json as unknown as { source: string }[];
    };
    // One anonymous bulk create queues a run per record.
    const burst = await api(server, `/api/apps/${DEFAULT_APP_ID}/entities/Ping/bulk`, {
      body: Array.from({ length: BURST }, (_, n) => ({ n })),
    });
    expect(burst.status).toBe(201);
    await expect
      .poll(async () => (await audits()).filter((row) => row.source === 'scheduled').length, {
        timeout: 60_000,
      })
      .toBe(1);
    // The schedule did not wait for the burst to drain (before: behind every queued run, one at a time).
    expect((await audits()).filter((row) => row.source === 'entity').length).toBeLessThan(MAX_QUEUED);
    // What the cap dropped is counted in the log: all but MAX_QUEUED (and a run or two claimed first).
    const dropped = [...server.logs().matchAll(/"dropped":(\d+)[^\n]*automation runs dropped/g)].reduce(
      (sum, match) => sum + Number(match[1]),
      0,
    );
    expect(dropped).toBeGreaterThanOrEqual(BURST - MAX_QUEUED - 4);
    expect(dropped).toBeLessThanOrEqual(BURST - MAX_QUEUED);
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
});
