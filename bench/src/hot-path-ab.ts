// Hot path A/B: the build of a git ref (BENCH_AB_REF, default f566d65, the build before the hot-path work of
// issue 9) against this checkout's build, both served at once on the same store, measured in interleaved
// rounds in one run. Ratios taken on different days on this shared, noisy 2-core machine are not
// comparable; two builds measured side by side, alternating, are. See bench/README.md.
//
// The old build lives in a git worktree cached under bench/.cache/ab-<sha> (git-ignored) with its own
// `npm ci` and `npm run build`, made once and reused while its marker file is there (BENCH_AB_CLEAN=1
// removes it first). Its node_modules are not a symlink to ours: the workspace links inside
// (node_modules/@queen/server → ../../server) would resolve to this checkout's sources, and the lockfiles
// differ anyway.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { AUTH_ENV, SERVICE_TOKEN } from '../../e2e/support/auth-helpers';
import { FIXTURE_PROJECT } from '../../e2e/support/entities-helpers';
import { createDatabase, dropDatabase } from '../../e2e/support/postgres';
import { REPO_ROOT, freePort, type DatabaseMode } from '../../e2e/support/server-process';
import { writeResults } from './lib/report';
import { mean, sampleStdDev } from './lib/stats';

const REF = process.env.BENCH_AB_REF || 'f566d65';
const ROUNDS = Number(process.env.BENCH_AB_ROUNDS ?? 4);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const WARMUP_SECONDS = 2;
const CONNECTIONS = 50;
const ROWS = Number(process.env.BENCH_AB_ROWS ?? 20_000);
const BULK_CHUNK = 1000;
const ID_SET = 1000;
/**
 * T_95 are the one-sided 95 % quantiles of Student's t for 1…30 degrees of freedom (1.645 beyond): the noise
 * margin is t(rounds − 1) standard errors of the mean paired difference.
 */
const T_95 = [
  6.314, 2.92, 2.353, 2.132, 2.015, 1.943, 1.895, 1.86, 1.833, 1.812, 1.796, 1.782, 1.771, 1.761, 1.753,
  1.746, 1.74, 1.734, 1.729, 1.725, 1.721, 1.717, 1.714, 1.711, 1.708, 1.706, 1.703, 1.701, 1.699, 1.697,
];
const tQuantile = (degrees: number) => T_95[degrees - 1] ?? 1.645;
/** WIDE_MARGIN is the share of the old mean above which a margin is called out as too wide to rule out small changes. */
const WIDE_MARGIN = 0.2;
const APP_ID = 'queen-solana';
const ENTITY = 'Todo';
const BASE = `/api/apps/${APP_ID}/entities/${ENTITY}`;
const LIST_QUERY = `q=${encodeURIComponent(JSON.stringify({ completed: false }))}&sort=-created_date&limit=50`;
const AUTH = { authorization: `Bearer ${SERVICE_TOKEN}` };
const CACHE = join(REPO_ROOT, 'bench/.cache');

type Build = 'old' | 'new';
type RouteKey = 'bare' | 'hot' | 'list';
const ROUTES: { key: RouteKey; name: string }[] = [
  { key: 'bare', name: 'bare route (`GET /healthz`)' },
  { key: 'hot', name: `hot get-by-id (${ID_SET} ids rotated)` },
  { key: 'list', name: 'hot list of 50 (`completed=false`, `-created_date`)' },
];

const git = (args: string[], cwd = REPO_ROOT) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

function run(command: string, args: string[], cwd: string): void {
  console.log(`  $ (${cwd}) ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status})`);
}

const hasTaskset = spawnSync('taskset', ['--version'], { stdio: 'ignore' }).status === 0;

/** prepareOld makes (or reuses) the worktree of REF with its dependencies installed and its build done. */
async function prepareOld(sha: string): Promise<string> {
  const dir = join(CACHE, `ab-${sha}`);
  const marker = join(dir, '.bench-ab-ready');
  if (process.env.BENCH_AB_CLEAN === '1' && existsSync(dir)) {
    console.log(`removing the cached build ${dir}`);
    git(['worktree', 'remove', '--force', dir]);
  }
  if (existsSync(marker) && existsSync(join(dir, 'server/dist/main.js'))) {
    console.log(`old build: reusing ${dir}`);
    return dir;
  }
  console.log(`old build: preparing ${dir} (once per ref: npm ci + npm run build, a few minutes)`);
  await mkdir(CACHE, { recursive: true });
  if (!existsSync(join(dir, '.git'))) {
    git(['worktree', 'prune']);
    await rm(dir, { recursive: true, force: true });
    run('git', ['worktree', 'add', '--detach', dir, sha], REPO_ROOT);
  }
  run('npm', ['ci', '--no-audit', '--no-fund'], dir);
  run('npm', ['run', 'build'], dir);
  await writeFile(marker, `${sha}\n`);
  return dir;
}

interface Served {
  build: Build;
  url: string;
  ids: string[];
  stop(): Promise<void>;
}

/** serve starts root's built server on core 0 (taskset) on a fresh DATA_DIR, and a fresh database in postgres mode. */
async function serve(build: Build, root: string, store: DatabaseMode): Promise<Served> {
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), `queen-ab-${build}-`));
  const database = store === 'postgres' ? await createDatabase() : null;
  const { DATABASE_URL: _database, REDIS_URL: _redis, ...inherited } = process.env;
  const argv = ['server/dist/main.js'];
  const command = hasTaskset ? 'taskset' : process.execPath;
  const args = hasTaskset ? ['-c', '0', process.execPath, ...argv] : argv;
  let output = '';
  const child: ChildProcess = spawn(command, args, {
    cwd: root,
    env: {
      ...inherited,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      PROJECT_DIR: FIXTURE_PROJECT,
      ...AUTH_ENV,
      ...(database ? { DATABASE_URL: database.url } : {}),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    await rm(dataDir, { recursive: true, force: true });
    if (database) await dropDatabase(database.name);
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`${build} server exited with ${child.exitCode} before ready:\n${output}`);
    }
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      await stop();
      throw new Error(`${build} server not ready within 90 s:\n${output}`);
    }
    await new Promise((wait) => setTimeout(wait, 100));
  }
  return { build, url, ids: [], stop };
}

/** load bulk-creates ROWS Todos (the same ones on each build) and keeps the first ID_SET ids. */
async function load(server: Served): Promise<number> {
  const started = performance.now();
  for (let offset = 0; offset < ROWS; offset += BULK_CHUNK) {
    const chunk = Array.from({ length: Math.min(BULK_CHUNK, ROWS - offset) }, (_, k) => ({
      title: `Todo ${offset + k}`,
      completed: (offset + k) % 2 === 1,
      priority: ((offset + k) % 5) + 1,
    }));
    const response = await fetch(`${server.url}${BASE}/bulk`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: JSON.stringify(chunk),
      signal: AbortSignal.timeout(120_000),
    });
    if (response.status !== 201)
      throw new Error(`${server.build}: bulk create HTTP ${response.status} ${await response.text()}`);
    const created = (await response.json()) as { id: string }[];
    if (server.ids.length < ID_SET) server.ids.push(...created.map((record) => record.id));
  }
  server.ids.length = Math.min(server.ids.length, ID_SET);
  return (performance.now() - started) / 1000;
}

function options(server: Served, route: RouteKey): autocannon.Options {
  if (route === 'bare') return { url: `${server.url}/healthz` };
  if (route === 'list') return { url: `${server.url}${BASE}?${LIST_QUERY}`, headers: AUTH };
  let next = 0;
  return {
    url: server.url,
    headers: AUTH,
    requests: [
      {
        method: 'GET',
        setupRequest: (request) => {
          next = (next + 1) % server.ids.length;
          return { ...request, path: `${BASE}/${server.ids[next]}` };
        },
      },
    ],
  };
}

interface Run {
  round: number;
  build: Build;
  route: RouteKey;
  /** primeSeconds is how long the untimed read of the hot set (or the list) before the run took. */
  primeSeconds: number;
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

/**
 * prime reads every id of the hot set (10 at a time) and the list once, untimed, right before a hot run: the
 * read cache keeps an entry 30 s, rounds are ~35 s apart, so without it a hot run would also refill expired
 * entries through the cold path (slow in the old build: a few hundred req/s at best, so its "hot" run
 * measured mostly cold reads). Returns how long it took.
 */
async function prime(server: Served, route: RouteKey): Promise<number> {
  const started = performance.now();
  const get = async (path: string) => {
    const response = await fetch(`${server.url}${path}`, {
      headers: AUTH,
      signal: AbortSignal.timeout(60_000),
    });
    if (!response.ok) throw new Error(`${server.build}: prime ${path}: HTTP ${response.status}`);
    await response.arrayBuffer();
  };
  if (route === 'list') await get(`${BASE}?${LIST_QUERY}`);
  if (route === 'hot')
    for (let i = 0; i < server.ids.length; i += 10)
      await Promise.all(server.ids.slice(i, i + 10).map((id) => get(`${BASE}/${id}`)));
  return (performance.now() - started) / 1000;
}

async function measure(server: Served, route: RouteKey, seconds: number): Promise<autocannon.Result> {
  return autocannon({ connections: CONNECTIONS, duration: seconds, timeout: 10, ...options(server, route) });
}

interface RouteSummary {
  route: RouteKey;
  name: string;
  old: { perRound: number[]; mean: number; ratioToBare: number };
  new: { perRound: number[]; mean: number; ratioToBare: number };
  /** change is (new − old) / old of the means. */
  change: number;
  /** differences are new − old per round (paired: the same round, seconds apart). */
  differences: number[];
  /** margin is t(rounds − 1) standard errors of the mean paired difference, in req/s (see T_95). */
  margin: number;
  verdict: 'no worse' | 'worse' | null;
}

interface StoreResult {
  store: DatabaseMode;
  loadSeconds: Record<Build, number>;
  loadAverage1m: { before: number; after: number };
  runs: Run[];
  routes: RouteSummary[];
}

async function benchStore(store: DatabaseMode, roots: Record<Build, string>): Promise<StoreResult> {
  console.log(`\n# ${store}`);
  const loadBefore = loadavg()[0] ?? Number.NaN;
  const servers: Partial<Record<Build, Served>> = {};
  try {
    // Both at once, as they are measured: each one idles while the other is under load.
    servers.old = await serve('old', roots.old, store);
    servers.new = await serve('new', roots.new, store);
    const both = { old: servers.old, new: servers.new };
    const loadSeconds = { old: 0, new: 0 };
    for (const build of ['old', 'new'] as const) {
      process.stdout.write(`  ${build}: bulk create of ${ROWS} Todos… `);
      loadSeconds[build] = await load(both[build]);
      console.log(`${loadSeconds[build].toFixed(1)} s`);
    }
    process.stdout.write(`  warm-up (${WARMUP_SECONDS} s per route and build)… `);
    for (const route of ROUTES)
      for (const build of ['old', 'new'] as const) await measure(both[build], route.key, WARMUP_SECONDS);
    console.log('done');

    const runs: Run[] = [];
    for (let round = 1; round <= ROUNDS; round += 1) {
      const order: Build[] = round % 2 === 1 ? ['old', 'new'] : ['new', 'old'];
      console.log(`  round ${round} (${order.join(' then ')} for each route)`);
      for (const route of ROUTES)
        for (const build of order) {
          const primeSeconds = await prime(both[build], route.key);
          const result = await measure(both[build], route.key, SECONDS);
          const measured: Run = {
            round,
            build,
            route: route.key,
            primeSeconds,
            requestsPerSecond: result.requests.average,
            p99Ms: result.latency.p99,
            non2xx: result.non2xx,
            errors: result.errors + result.timeouts,
          };
          runs.push(measured);
          console.log(
            `    ${route.key.padEnd(4)} ${build}: ${Math.round(measured.requestsPerSecond)} req/s, p99 ${measured.p99Ms} ms${route.key === 'hot' ? ` (primed in ${primeSeconds.toFixed(1)} s)` : ''}${measured.non2xx || measured.errors ? `, non-2xx ${measured.non2xx}, errors ${measured.errors}` : ''}`,
          );
        }
    }
    return {
      store,
      loadSeconds,
      loadAverage1m: { before: loadBefore, after: loadavg()[0] ?? Number.NaN },
      runs,
      routes: summarize(runs),
    };
  } finally {
    await servers.new?.stop();
    await servers.old?.stop();
  }
}

function summarize(runs: Run[]): RouteSummary[] {
  const perRound = (build: Build, route: RouteKey) =>
    Array.from(
      { length: ROUNDS },
      (_, i) =>
        runs.find((r) => r.round === i + 1 && r.build === build && r.route === route)?.requestsPerSecond ??
        Number.NaN,
    );
  const bare = { old: mean(perRound('old', 'bare')), new: mean(perRound('new', 'bare')) };
  return ROUTES.map(({ key, name }) => {
    const old = perRound('old', key);
    const cur = perRound('new', key);
    const differences = cur.map((value, i) => value - (old[i] ?? Number.NaN));
    const margin =
      differences.length > 1
        ? (tQuantile(differences.length - 1) * sampleStdDev(differences)) / Math.sqrt(differences.length)
        : Number.POSITIVE_INFINITY;
    return {
      route: key,
      name,
      old: { perRound: old, mean: mean(old), ratioToBare: mean(old) / bare.old },
      new: { perRound: cur, mean: mean(cur), ratioToBare: mean(cur) / bare.new },
      change: mean(cur) / mean(old) - 1,
      differences,
      margin,
      verdict: key === 'bare' ? null : mean(cur) >= mean(old) - margin ? 'no worse' : 'worse',
    };
  });
}

// --- main ---------------------------------------------------------------------------------------------

if (!existsSync(join(REPO_ROOT, 'server/dist/main.js')))
  throw new Error('server/dist/main.js is missing: run `npm run build` first');
if (hasTaskset) {
  // autocannon (this process, every thread) on core 1; the servers on core 0.
  execFileSync('taskset', ['-a', '-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });
} else console.log('taskset not found: servers and load generator are not pinned');

const oldSha = git(['rev-parse', '--verify', `${REF}^{commit}`]);
const newSha = git(['rev-parse', 'HEAD']);
const newDirty = git(['status', '--porcelain', '--untracked-files=no']) !== '';
const oldRoot = await prepareOld(oldSha);
const builtFrom = (await readFile(join(oldRoot, '.bench-ab-ready'), 'utf8')).trim();
if (builtFrom !== oldSha) throw new Error(`${oldRoot} was built from ${builtFrom}, not ${oldSha}`);

const stores: DatabaseMode[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
const started = Date.now();
const results: StoreResult[] = [];
for (const store of stores) results.push(await benchStore(store, { old: oldRoot, new: REPO_ROOT }));

const int = (value: number) => Math.round(value).toLocaleString('en-US');
const pct = (value: number) => `${value >= 0 ? '+' : '−'}${Math.abs(value * 100).toFixed(1)} %`;
const storeName = (store: DatabaseMode) => (store === 'pglite' ? 'PGlite' : 'PostgreSQL');
const date = new Date().toISOString();
const short = (sha: string) => sha.slice(0, 7);
const markdown = [
  '# Hot path A/B: before and after the hot-path work, in one run',
  '',
  `${date} · old \`${short(oldSha)}\` (\`BENCH_AB_REF=${REF}\`) → new \`${short(newSha)}\`${newDirty ? ' (with uncommitted changes)' : ''} · Node ${process.version} · ${cpus().length} CPUs · ` +
    `${hasTaskset ? 'both servers pinned to core 0, autocannon on core 1' : 'not pinned (no taskset)'} · ${CONNECTIONS} connections, ${SECONDS} s per run, ` +
    `${ROUNDS} rounds (odd rounds old then new, even rounds new then old, per route) · ${ROWS} Todos by bulk create · ` +
    `the hot ids and the list read once, untimed, before each of their runs (read cache primed) · ` +
    `${Math.round((Date.now() - started) / 1000)} s`,
  '',
  'Both builds run at once on the same store (PGlite: each its own DATA_DIR; PostgreSQL: each a fresh',
  'database on the same server), so the load other work puts on the shared machine falls on both alike;',
  'that interleaving, not a quiet machine, is what makes the comparison fair.',
  '',
];
for (const result of results) {
  markdown.push(
    `## ${storeName(result.store)}`,
    '',
    `Load average (1 min) ${result.loadAverage1m.before.toFixed(2)} before, ${result.loadAverage1m.after.toFixed(2)} after · bulk create of ${ROWS} Todos: old ${result.loadSeconds.old.toFixed(1)} s, new ${result.loadSeconds.new.toFixed(1)} s`,
    '',
    '| route | req/s old → new (mean) | change | per round, old → new | new slower in | ratio to bare old → new | noise margin | verdict |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...result.routes.map(
      (route) =>
        `| ${route.name} | ${int(route.old.mean)} → ${int(route.new.mean)} | ${pct(route.change)} | ${route.old.perRound
          .map((value, i) => `${int(value)} → ${int(route.new.perRound[i] ?? Number.NaN)}`)
          .join(
            '; ',
          )} | ${route.differences.filter((d) => d < 0).length} of ${ROUNDS} rounds | ${(route.old.ratioToBare * 100).toFixed(1)} % → ${(route.new.ratioToBare * 100).toFixed(1)} % | ` +
        `± ${int(route.margin)} (${((route.margin / route.old.mean) * 100).toFixed(0)} %) | ${route.verdict ?? '—'} |`,
    ),
    '',
  );
  const everyRound = result.routes.filter(
    (route) => route.verdict === 'no worse' && route.differences.every((d) => d < 0),
  );
  if (everyRound.length > 0)
    markdown.push(
      `${everyRound.map((route) => route.route).join(' and ')}: "no worse" by the margin, yet the new build was slower in every`,
      `round (a sign test alone would give p = ${(0.5 ** ROUNDS).toFixed(3)} one-sided): read it as a likely slowdown.`,
      '',
    );
  const wide = result.routes.filter((route) => route.verdict && route.margin > WIDE_MARGIN * route.old.mean);
  if (wide.length > 0)
    markdown.push(
      `The margin of ${wide.map((route) => route.route).join(' and ')} is over ${WIDE_MARGIN * 100} % of the old mean: the rounds`,
      'disagree a lot (other work on the machine), so "no worse" here only says the run shows no slowdown, not',
      'that a small one is ruled out. More rounds (`BENCH_AB_ROUNDS`) or a quieter machine narrow it.',
      '',
    );
}
markdown.push(
  'Noise margin: the one-sided 95 % Student t bound of the mean paired difference. Each round gives one',
  'difference d = new − old (the two runs are seconds apart, in alternating order); margin =',
  `t(0.95, rounds − 1) · sd(d) / √rounds (t = ${tQuantile(ROUNDS - 1)} for ${ROUNDS} rounds). Verdict "no worse" when the`,
  'new mean ≥ the old mean − that margin, i.e. the rounds do not show the new build slower beyond their own',
  'spread (the issue 9 goal for hot and list: no worse than before the work). The ratio to each build’s own',
  'bare route is shown for reference; the verdict reads req/s.',
  '',
);
await writeResults(
  'hot-path-ab',
  {
    date,
    ref: REF,
    old: oldSha,
    new: newSha,
    newDirty,
    machine: { node: process.version, cpus: cpus().length, pinned: hasTaskset },
    connections: CONNECTIONS,
    secondsPerRun: SECONDS,
    rounds: ROUNDS,
    rows: ROWS,
    noiseMargin: `t(0.95, rounds - 1) * sampleStdDev(new - old per round) / sqrt(rounds), t = ${tQuantile(ROUNDS - 1)}`,
    stores: results,
  },
  markdown.join('\n'),
);
console.log(`\n${markdown.join('\n')}`);
if (results.some((result) => result.runs.some((r) => r.non2xx > 0 || r.errors > 0))) {
  console.error('some measured requests failed (non-2xx or errors)');
  process.exitCode = 1;
}
