// list-uncached (issue 28, part 5): an uncached list of 50 (`READ_CACHE=off`, PostgreSQL, 50 connections)
// against the bare route of lib/bare-list-server.ts (the same SQL through the same `pg` driver, one
// `Object.assign` per row, Fastify's serializer), alternating in rounds in one run. Goal: ours ≥ 0.9× bare.
// The answers are checked equal (same rows, same stamps as ISO text) before anything is timed.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { AUTH_ENV, SERVICE_TOKEN } from '../../e2e/support/auth-helpers';
import { FIXTURE_PROJECT } from '../../e2e/support/entities-helpers';
import { freePort, startServer, type RunningServer } from '../../e2e/support/server-process';
import { writeResults } from './lib/report';
import { mean } from './lib/stats';

const APP_ID = 'queen-solana';
const ENTITY = 'Todo';
const ROWS = 5_000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 50;
// Both servers run this long before the rounds, so both are measured compiled (ours has more code to JIT).
const WARM_UP_SECONDS = 8;
const GOAL = 0.9;
// Linux's USER_HZ, the unit of /proc/<pid>/stat's CPU times (100 on every mainstream architecture).
const CLOCK_TICKS_PER_SECOND = 100;
const PATH = `/api/apps/${APP_ID}/entities/${ENTITY}?sort=-created_date&limit=50`;
const AUTH = { authorization: `Bearer ${SERVICE_TOKEN}` };

async function seed(server: RunningServer): Promise<void> {
  for (let offset = 0; offset < ROWS; offset += 1000) {
    const chunk = Array.from({ length: 1000 }, (_, k) => ({
      title: `Todo ${offset + k}`,
      completed: (offset + k) % 3 === 0,
      priority: ((offset + k) % 5) + 1,
    }));
    const response = await fetch(`${server.url}/api/apps/${APP_ID}/entities/${ENTITY}/bulk`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: JSON.stringify(chunk),
    });
    if (!response.ok) throw new Error(`seed: HTTP ${response.status} ${await response.text()}`);
  }
}

/**
 * settle vacuums and analyzes the seeded table, as autovacuum soon would: otherwise it does so during some
 * round, and the first reads of each new row write its hint bits, which slows whichever side runs then.
 */
async function settle(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('VACUUM ANALYZE entity_records');
  } finally {
    await client.end();
  }
}

async function startBare(databaseUrl: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'lib/bare-list-server.ts')],
    {
      env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the bare server exited (${code})`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('listening')) resolve();
    });
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

/** cpuSeconds is the CPU time (user + system) process pid has used so far (Linux /proc). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

/**
 * load drives url for seconds: its requests per second, and the server's CPU time per request (µs), which
 * a shared machine's noise moves far less than the rate.
 */
async function load(
  url: string,
  headers: Record<string, string>,
  seconds: number,
  pid: number,
): Promise<{ rate: number; cpuMicros: number }> {
  const cpuBefore = cpuSeconds(pid);
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: seconds, timeout: 10 });
  const cpu = cpuSeconds(pid) - cpuBefore;
  if (result.non2xx + result.errors + result.timeouts > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  return { rate: result.requests.average, cpuMicros: (cpu * 1e6) / result.requests.total };
}

// The database server .ci/run uses, unless the caller names another (the harness makes its own database there).
process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const server = await startServer({
  database: 'postgres',
  env: {
    PROJECT_DIR: FIXTURE_PROJECT,
    ...AUTH_ENV,
    LOG_LEVEL: 'warn',
    READ_CACHE: 'off',
    // e.g. `--import=<abs path of lib/cpu-profile.mjs>` to see where an uncached list's time goes.
    ...(process.env.BENCH_SERVER_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS } : {}),
  },
});
let bare: { url: string; child: ChildProcess } | undefined;
try {
  console.log(`list-uncached: seeding ${ROWS} Todos on PostgreSQL…`);
  await seed(server);
  await settle(server.databaseUrl ?? '');
  bare = await startBare(server.databaseUrl ?? '');
  const ours = await (await fetch(`${server.url}${PATH}`, { headers: AUTH })).text();
  const theirs = await (await fetch(`${bare.url}${PATH}`)).text();
  if (ours !== theirs) throw new Error('our answer and the bare route differ: compare them before timing');

  const oursUrl = `${server.url}${PATH}`;
  const bareUrl = `${bare.url}${PATH}`;
  const barePid = bare.child.pid ?? 0;
  await load(oursUrl, AUTH, WARM_UP_SECONDS, server.pid);
  await load(bareUrl, {}, WARM_UP_SECONDS, barePid);
  const rounds: { ours: number; bare: number; oursCpuMicros: number; bareCpuMicros: number }[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    // Who goes first alternates: a shared machine's speed drifts, and the side measured second in every
    // round would otherwise get the drift each time.
    const oursFirst = round % 2 === 1;
    const first = await load(
      oursFirst ? oursUrl : bareUrl,
      oursFirst ? AUTH : {},
      SECONDS,
      oursFirst ? server.pid : barePid,
    );
    const second = await load(
      oursFirst ? bareUrl : oursUrl,
      oursFirst ? {} : AUTH,
      SECONDS,
      oursFirst ? barePid : server.pid,
    );
    const [ours, theirs] = oursFirst ? [first, second] : [second, first];
    rounds.push({
      ours: ours.rate,
      bare: theirs.rate,
      oursCpuMicros: ours.cpuMicros,
      bareCpuMicros: theirs.cpuMicros,
    });
    console.log(
      `  round ${round}: ours ${Math.round(ours.rate)} req/s (${Math.round(ours.cpuMicros)} µs CPU each), ` +
        `bare ${Math.round(theirs.rate)} req/s (${Math.round(theirs.cpuMicros)} µs)`,
    );
  }
  const ratio = mean(rounds.map((round) => round.ours / round.bare));
  const cpuRatio = mean(rounds.map((round) => round.bareCpuMicros / round.oursCpuMicros));
  const verdict = ratio >= GOAL ? 'met' : 'not met';
  console.log(
    `  ours / bare: ${ratio.toFixed(2)} (goal ≥ ${GOAL}: ${verdict}); ` +
      `CPU per request, bare / ours: ${cpuRatio.toFixed(2)}`,
  );
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, load ${loadavg()[0]?.toFixed(2)}`;
  await writeResults(
    'list-uncached',
    { rows: ROWS, connections: CONNECTIONS, seconds: SECONDS, rounds, ratio, cpuRatio, goal: GOAL, machine },
    [
      '# list-uncached',
      '',
      `An uncached list of 50 (\`READ_CACHE=off\`, PostgreSQL, ${ROWS} Todos, ${CONNECTIONS} connections, ` +
        `${SECONDS} s per side, who goes first alternating) against the bare route (lib/bare-list-server.ts). ${machine}.`,
      '',
      '| round | ours req/s | bare req/s | ours / bare | CPU per request, ours / bare (µs) |',
      '| --- | --- | --- | --- | --- |',
      ...rounds.map(
        (r, i) =>
          `| ${i + 1} | ${Math.round(r.ours)} | ${Math.round(r.bare)} | ${(r.ours / r.bare).toFixed(2)} | ` +
          `${Math.round(r.oursCpuMicros)} / ${Math.round(r.bareCpuMicros)} |`,
      ),
      '',
      `Mean ratio ${ratio.toFixed(2)}: goal ≥ ${GOAL} ${verdict}. ` +
        `CPU per request, bare / ours: ${cpuRatio.toFixed(2)} (the server process, all its threads).`,
    ].join('\n'),
  );
} finally {
  bare?.child.kill();
  await server.stop();
}
