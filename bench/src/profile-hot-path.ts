// Profiles the hot path: for each scenario (cold get-by-id, `GET entities/User/me`, create) a fresh server
// runs under `--cpu-prof` (main thread and the PGlite worker) while autocannon drives that one request, then
// the profiles' heaviest functions (self time) are printed. PROFILE_DATABASE=postgres profiles on
// PostgreSQL (DATABASE_URL names the server); PROFILE_ROWS sets the table size (default 20,000);
// PROFILE_SCENARIOS (comma-separated names) picks scenarios; PROFILE_BUILD profiles another checkout's build
// (say the bench:ab cache, bench/.cache/ab-<sha>), to compare a route's frames between two builds.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { AUTH_ENV, SERVICE_TOKEN } from '../../e2e/support/auth-helpers';
import { FIXTURE_PROJECT } from '../../e2e/support/entities-helpers';
import { createDatabase, dropDatabase } from '../../e2e/support/postgres';
import { freePort, REPO_ROOT, type DatabaseMode } from '../../e2e/support/server-process';

const APP_ID = 'queen-solana';
const ROWS = Number(process.env.PROFILE_ROWS ?? 20_000);
const SECONDS = Number(process.env.PROFILE_SECONDS ?? 5);
const TOP = Number(process.env.PROFILE_TOP ?? 18);
const DATABASE: DatabaseMode = process.env.PROFILE_DATABASE === 'postgres' ? 'postgres' : 'pglite';
const AUTH = { authorization: `Bearer ${SERVICE_TOKEN}` };
const OUT = join(REPO_ROOT, 'bench/.tmp/profiles');
const BUILD = process.env.PROFILE_BUILD ? resolve(REPO_ROOT, process.env.PROFILE_BUILD) : REPO_ROOT;
const SCENARIOS = process.env.PROFILE_SCENARIOS?.split(',').map((name) => name.trim());

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Window is the load's span in CLOCK_MONOTONIC microseconds, the clock V8's profiler stamps samples with. */
interface Window {
  from: number;
  to: number;
}
const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

/**
 * topFrames sums the self time of each function (name + file + line) over the samples taken inside window
 * (so start-up and the import are left out) and returns the heaviest, in % of the window.
 */
function topFrames(profile: CpuProfile, window: Window, count: number): string[] {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  let total = 0;
  let time = profile.startTime;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    time += delta;
    const node = byNode.get(id);
    if (!node || time < window.from || time > window.to) return;
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url.replace(/^.*\/(node_modules\/)?/, '') || '(native)';
    const key = `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + delta);
    total += delta;
  });
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([key, micros]) => `${((100 * micros) / total).toFixed(1).padStart(5)} %  ${key}`);
}

/** startProfiledServer runs server/dist/main.js under --cpu-prof (Node 20 refuses it in NODE_OPTIONS). */
async function startProfiledServer(dir: string) {
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), 'queen-profile-'));
  const database = DATABASE === 'postgres' ? await createDatabase() : null;
  const { DATABASE_URL: _database, REDIS_URL: _redis, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, 'server/dist/main.js'], {
    cwd: BUILD,
    env: {
      ...inherited,
      ...AUTH_ENV,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      PROJECT_DIR: FIXTURE_PROJECT,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ...(database ? { DATABASE_URL: database.url } : {}),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const url = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries += 1) {
    if (child.exitCode !== null || tries > 600) throw new Error('the server did not start');
    if (
      await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((wait) => setTimeout(wait, 100));
  }
  return {
    url,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
      if (database) await dropDatabase(database.name);
    },
  };
}

async function profileScenario(
  name: string,
  prepare: (url: string) => Promise<autocannon.Options>,
): Promise<void> {
  if (SCENARIOS && !SCENARIOS.includes(name)) return;
  const dir = join(OUT, name);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const server = await startProfiledServer(dir);
  let window: Window = { from: 0, to: 0 };
  try {
    const options = await prepare(server.url);
    const from = monotonicMicros();
    const result = await autocannon({ connections: 50, duration: SECONDS, ...options });
    window = { from, to: monotonicMicros() };
    await writeFile(join(dir, 'window.json'), JSON.stringify(window));
    console.log(`\n## ${name} (${DATABASE}, ${ROWS} rows): ${Math.round(result.requests.average)} req/s`);
  } finally {
    await server.stop();
  }
  for (const file of (await readdir(dir)).filter((name) => name.endsWith('.cpuprofile')).sort()) {
    const profile = JSON.parse(await readFile(join(dir, file), 'utf8')) as CpuProfile;
    const thread = file.includes('.0.001.') ? 'main thread' : 'worker thread';
    console.log(`\n${thread} (${file})\n${topFrames(profile, window, TOP).join('\n')}`);
  }
}

/**
 * createTodos stores ROWS Todos through bulk create, 1,000 a request: unlike an import, that never refreshes
 * the planner's statistics, as an app's own creates do not.
 */
async function createTodos(url: string): Promise<string[]> {
  const ids: string[] = [];
  for (let offset = 0; offset < ROWS; offset += 1000) {
    const chunk = Array.from({ length: Math.min(1000, ROWS - offset) }, (_, k) => ({
      title: `Todo ${offset + k}`,
      completed: (offset + k) % 2 === 0,
      priority: ((offset + k) % 5) + 1,
    }));
    const response = await fetch(`${url}/api/apps/${APP_ID}/entities/Todo/bulk`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: JSON.stringify(chunk),
    });
    if (response.status !== 201) throw new Error(`bulk create: HTTP ${response.status}`);
    ids.push(...((await response.json()) as { id: string }[]).map((record) => record.id));
  }
  return ids;
}

async function userToken(url: string): Promise<string> {
  const api = `${url}/api/apps/${APP_ID}`;
  const email = 'profile@example.com';
  const password = 'profile-password-123456';
  const created = await fetch(`${api}/admin/users`, {
    method: 'POST',
    headers: { ...AUTH, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, role: 'user' }),
  });
  if (!created.ok) throw new Error(`create user: HTTP ${created.status} ${await created.text()}`);
  const login = await fetch(`${api}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!login.ok) throw new Error(`login: HTTP ${login.status}`);
  return ((await login.json()) as { access_token: string }).access_token;
}

await profileScenario('get-by-id-cold', async (url) => {
  const ids = await createTodos(url);
  let next = 0;
  return {
    url,
    headers: AUTH,
    requests: [
      {
        method: 'GET',
        setupRequest: (request) => ({
          ...request,
          path: `/api/apps/${APP_ID}/entities/Todo/${ids[(next = (next + 1) % ids.length)]}`,
        }),
      },
    ],
  };
});
// The bench's bare route, the reference every ratio is taken to: what any request costs.
await profileScenario('bare', async (url) => ({ url: `${url}/healthz` }));
await profileScenario('list-hot', async (url) => {
  await createTodos(url);
  // The same list as bench:ab's: after the first request it is answered from the read cache.
  const path = `/api/apps/${APP_ID}/entities/Todo?q=${encodeURIComponent('{"completed":false}')}&sort=-created_date&limit=50`;
  return { url: `${url}${path}`, headers: AUTH };
});
await profileScenario('user-me', async (url) => ({
  url: `${url}/api/apps/${APP_ID}/entities/User/me`,
  headers: { authorization: `Bearer ${await userToken(url)}` },
}));
await profileScenario('create', async (url) => {
  await createTodos(url);
  return {
    url: `${url}/api/apps/${APP_ID}/entities/Todo`,
    method: 'POST',
    headers: { ...AUTH, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'profile create', completed: false, priority: 3 }),
  };
});
console.log(`\nProfiles: ${OUT} (open them in Chrome DevTools → Performance, or speedscope)`);
