// Realtime fan-out at scale (issue 28): one server (PGlite by default, PostgreSQL with DATABASE_URL) pinned
// to core 0 with taskset, the fleet on core 1. SOCKETS sockets of USERS users (the e2e fixture project's
// Note: each user reads only their own notes) join over RAMP_S seconds, as visitors arrive, so their
// identities age and are re-checked at different times; PUBLIC_SOCKETS signed-out sockets join Todo, which
// everyone reads. The fleet is a light socket.io wire client spread over worker threads (lib/socket-fleet.ts).
// After WARMUP_ROUNDS events, measured, each delivery from its record's commit (and from its create request's
// start) to the socket's `update_model`:
// - spaced: STEPS creates 200 ms apart (a Note by one user; every 10th step also a Todo);
// - burst: BURST Note creates of different users at once;
// p50/p99/max, deliveries missing and delivered to a socket the rules exclude, the server's memory per socket
// (lib/memory-probe.mjs), the server's own longest event-loop delay and GC pause in each phase (the same
// probe), and a /healthz request every 20 ms from outside (on the fleet's core, so it counts its waits too).
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { AUTH_ENV, SERVICE_TOKEN, createUser, uniqueEmail } from '../../e2e/support/auth-helpers';
import { FIXTURE_PROJECT } from '../../e2e/support/entities-helpers';
import { removeServerData, startServer, type RunningServer } from '../../e2e/support/server-process';
import { absoluteNow, oneAddressLimits, SocketFleet, type Delivery } from './lib/socket-fleet';
import { writeResults } from './lib/report';
import { slope } from './lib/stats';

const APP_ID = 'queen-solana';
const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 10_000);
const USERS = Number(process.env.BENCH_USERS ?? 500);
const PUBLIC_SOCKETS = Number(process.env.BENCH_PUBLIC_SOCKETS ?? 1_000);
const RAMP_S = Number(process.env.BENCH_RAMP_S ?? 45);
const STEPS = Number(process.env.BENCH_STEPS ?? 100);
const BURST = Math.min(USERS, Number(process.env.BENCH_BURST ?? 100));
const THREADS = 2;
/** WARMUP_ROUNDS is how many Note + Todo pairs warm the delivery path before the measured phases. */
const WARMUP_ROUNDS = 5;
const GOALS = { spacedP99: 50, burstP99: 250, loopDelay: 100, kbPerSocket: 14 };

const MEMORY_PROBE = join(import.meta.dirname, 'lib/memory-probe.mjs');
const MEMORY_FILE = join(tmpdir(), `realtime-fanout-memory-${process.pid}.txt`);

/**
 * MemorySample is one line of lib/memory-probe.mjs: when (epoch ms), the RSS and the young generation (KB),
 * and the longest event-loop delay and garbage collection pause of the 250 ms before it (ms).
 */
type MemorySample = { at: number; rssKb: number; youngKb: number; loopMs: number; gcMs: number };

const memoryLines = () => readFileSync(MEMORY_FILE, 'utf8').trim().split('\n');

function memorySamples(): MemorySample[] {
  return memoryLines()
    .filter((line) => !line.startsWith('gc '))
    .map((line) => line.split(' ').map(Number))
    .map(([at = 0, rssKb = 0, youngKb = 0, loopMs = 0, gcMs = 0]) => ({ at, rssKb, youngKb, loopMs, gcMs }));
}

/** insideDelays is the server's own longest event-loop delay and GC pause between two epoch times (ms). */
function insideDelays(from: number, to: number): { loopMs: number; gcMs: number } {
  // A sample covers the 250 ms before it.
  const window = memorySamples().filter(({ at }) => at > from && at <= to + 250);
  return {
    loopMs: Math.max(0, ...window.map((sample) => sample.loopMs)),
    gcMs: Math.max(0, ...window.map((sample) => sample.gcMs)),
  };
}

/**
 * collectedMemory has the probe collect all garbage, then reads the server's RSS, JS heap and every
 * thread's young generation (KB).
 */
async function collectedMemory(pid: number): Promise<{ rssKb: number; heapKb: number; youngKb: number }> {
  const collected = () => memoryLines().filter((line) => line.startsWith('gc '));
  const before = collected().length;
  process.kill(pid, 'SIGUSR2');
  for (let attempt = 0; attempt < 100; attempt += 1) {
    await sleep(100);
    const fields = collected()[before]?.split(' ').map(Number) ?? [];
    const [, , rssKb = Number.NaN, heapKb = Number.NaN, , , youngKb = Number.NaN] = fields;
    if (!Number.isNaN(rssKb)) return { rssKb, heapKb, youngKb };
  }
  throw new Error('the memory probe did not answer SIGUSR2');
}

const hasTaskset = spawnSync('taskset', ['--version'], { stdio: 'ignore' }).status === 0;
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const rssKb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);

/** settledRssKb is the median of 5 RSS readings 300 ms apart, after a 3 s pause (garbage collection comes and goes). */
async function settledRssKb(pid: number): Promise<number> {
  await sleep(3_000);
  const readings: number[] = [];
  for (let i = 0; i < 5; i += 1) {
    readings.push(rssKb(pid));
    await sleep(300);
  }
  return percentile(readings, 50);
}

async function post(server: RunningServer, entity: string, token: string, body: object): Promise<void> {
  const response = await fetch(`${server.url}/api/apps/${APP_ID}/entities/${entity}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  if (response.status !== 201)
    throw new Error(`create ${entity}: ${response.status} ${await response.text()}`);
}

/** loopProbe requests /healthz every 20 ms until stopped, and answers the slowest and p99 answer times. */
function loopProbe(server: RunningServer) {
  const times: number[] = [];
  let running = true;
  const done = (async () => {
    while (running) {
      const started = performance.now();
      await fetch(`${server.url}/healthz`).then((r) => r.arrayBuffer());
      times.push(performance.now() - started);
      await sleep(20);
    }
  })();
  return async () => {
    running = false;
    await done;
    return { max: Math.max(...times), p99: percentile(times, 99) };
  };
}

interface Expected {
  marker: string;
  sentAt: number;
  /** sockets are the fleet indexes that must receive it. */
  sockets: number[];
  fleet: 'notes' | 'public';
}

/**
 * score matches what arrived against what was expected: latencies (from the record's commit, bounded by its
 * created_date stamp, and from the create request's start), missing, and wrong deliveries.
 */
function score(
  expected: Expected[],
  notes: Map<number, Delivery[]>,
  open: Map<number, Delivery[]>,
  ownerOf: (socket: number) => number,
) {
  const fromCommit: number[] = [];
  const fromRequest: number[] = [];
  const byFleet = { notes: [] as number[], public: [] as number[] };
  // The slowest delivery of each marker, printed with BENCH_DEBUG.
  const slowest = new Map<string, number>();
  let missing = 0;
  for (const item of expected) {
    const received = item.fleet === 'notes' ? notes : open;
    for (const socket of item.sockets) {
      const hit = received.get(socket)?.find((delivery) => delivery.marker === item.marker);
      if (hit) {
        fromCommit.push(hit.at - hit.createdAt);
        fromRequest.push(hit.at - item.sentAt);
        byFleet[item.fleet].push(hit.at - hit.createdAt);
        slowest.set(item.marker, Math.max(slowest.get(item.marker) ?? 0, hit.at - hit.createdAt));
      } else missing += 1;
    }
  }
  if (process.env.BENCH_DEBUG) {
    const worst = [...slowest].sort((a, b) => b[1] - a[1]).slice(0, 8);
    console.log(worst.map(([marker, ms]) => `${marker} ${ms.toFixed(0)}`).join(', '));
  }
  // A note's marker names its owner: `<phase>-<step>-u<owner>`.
  let wrong = 0;
  for (const [socket, deliveries] of notes) {
    for (const { marker } of deliveries) if (!marker.endsWith(`-u${ownerOf(socket)}`)) wrong += 1;
  }
  return {
    deliveries: fromCommit.length,
    p50: percentile(fromCommit, 50),
    p99: percentile(fromCommit, 99),
    max: Math.max(...fromCommit),
    requestP50: percentile(fromRequest, 50),
    requestP99: percentile(fromRequest, 99),
    notesP99: percentile(byFleet.notes, 99),
    publicP99: percentile(byFleet.public, 99),
    missing,
    wrong,
  };
}

const serverEnv = {
  PROJECT_DIR: FIXTURE_PROJECT,
  ...AUTH_ENV,
  LOG_LEVEL: 'warn',
  ...oneAddressLimits(SOCKETS + PUBLIC_SOCKETS),
};
const database = process.env.DATABASE_URL ? 'postgres' : 'pglite';

// The users are made on a first server, which then stops: 1,000 password hashes leave memory in the
// allocator that it hands back whenever it likes, and the RSS per socket once came out negative. The
// measured server starts fresh on the same data, where the users' tokens stay valid.
console.log(`Creating ${USERS} users…`);
const setup = await startServer({ env: serverEnv, database, keepData: true });
const tokens: string[] = [];
try {
  for (let start = 0; start < USERS; start += 10) {
    const made = await Promise.all(
      Array.from({ length: Math.min(10, USERS - start) }, () =>
        createUser(setup, { email: uniqueEmail('fanout') }),
      ),
    );
    tokens.push(...made.map((user) => user.token));
  }
} finally {
  await setup.stop();
}
const server = await startServer({
  env: {
    ...serverEnv,
    // The memory probe, and e.g. `--import=<abs path of lib/cpu-profile.mjs>` to see where the time goes.
    NODE_OPTIONS: `--import=${MEMORY_PROBE} ${process.env.BENCH_SERVER_NODE_OPTIONS ?? ''}`.trim(),
    MEMORY_PROBE_FILE: MEMORY_FILE,
  },
  database,
  dataDir: setup.dataDir,
  ...(setup.databaseUrl ? { databaseUrl: setup.databaseUrl } : {}),
});
if (hasTaskset) {
  execFileSync('taskset', ['-a', '-p', '-c', '0', String(server.pid)], { stdio: 'ignore' });
  execFileSync('taskset', ['-a', '-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });
}
try {
  const rssBefore = await settledRssKb(server.pid);
  const collectedBefore = await collectedMemory(server.pid);
  // The server's memory every 250 ms (lib/memory-probe.mjs) while sockets arrive at an even pace: its slope
  // over the ramp's second half is the memory each socket adds, apart from one-off growth early on.
  const rampStart = Date.now();
  console.log(
    `Connecting ${SOCKETS} sockets of ${USERS} users over ${RAMP_S} s, and ${PUBLIC_SOCKETS} signed-out…`,
  );
  const [notes, open] = await Promise.all([
    SocketFleet.open({
      url: server.url,
      sockets: SOCKETS,
      threads: THREADS,
      appId: APP_ID,
      token: 'null',
      tokens,
      room: `entities:${APP_ID}:Note`,
      rampMs: RAMP_S * 1000,
    }),
    SocketFleet.open({
      url: server.url,
      sockets: PUBLIC_SOCKETS,
      threads: 1,
      appId: APP_ID,
      token: 'null',
      room: `entities:${APP_ID}:Todo`,
      rampMs: RAMP_S * 1000,
    }),
  ]);
  const rampMs = RAMP_S * 1000;
  const secondHalf = memorySamples().filter(
    ({ at }) => at - rampStart >= rampMs / 2 && at - rampStart <= rampMs,
  );
  const kbPerSocketOf = (pick: (sample: MemorySample) => number) =>
    (slope(secondHalf.map((sample) => [sample.at - rampStart, pick(sample)])) * rampMs) /
    (SOCKETS + PUBLIC_SOCKETS);
  // The young generation grows in steps up to a fixed cap, whatever the sockets: not counted per socket.
  const kbPerSocketSlope = kbPerSocketOf(({ rssKb, youngKb }) => rssKb - youngKb);
  const kbPerSocketRss = kbPerSocketOf(({ rssKb }) => rssKb);
  const kbPerSocketSettled = ((await settledRssKb(server.pid)) - rssBefore) / (SOCKETS + PUBLIC_SOCKETS);
  // What the sockets keep, garbage collected before and after: the goal's measure.
  const collectedAfter = await collectedMemory(server.pid);
  const kbPerSocketCollected = (collectedAfter.rssKb - collectedBefore.rssKb) / (SOCKETS + PUBLIC_SOCKETS);
  // Less the young generations' growth (the main thread's and the workers'): each grows in steps to a fixed
  // cap whatever the load, and PGlite's worker grew from 16 to 32 MB during the joins in one run.
  const youngGrowthKb = collectedAfter.youngKb - collectedBefore.youngKb;
  const kbPerSocket = kbPerSocketCollected - youngGrowthKb / (SOCKETS + PUBLIC_SOCKETS);
  const heapKbPerSocket = (collectedAfter.heapKb - collectedBefore.heapKb) / (SOCKETS + PUBLIC_SOCKETS);
  const ownerOf = (socket: number) => socket % USERS;
  const socketsOf = (user: number) =>
    Array.from({ length: Math.ceil(SOCKETS / USERS) }, (_, i) => user + i * USERS).filter((s) => s < SOCKETS);
  const everyPublic = Array.from({ length: PUBLIC_SOCKETS }, (_, i) => i);
  try {
    // Joins settle asynchronously; then a few Notes and Todos warm the delivery path, as a server that has
    // run a while is warm. The first event after 11,000 joins is slower (the code paths compile, the rooms'
    // groups are first walked): reported apart, with the slowest of the rest of the warm-up.
    await sleep(2_000);
    const warmupMs: number[] = [];
    let warmupDeliveries = 0;
    for (let round = 0; round < WARMUP_ROUNDS; round += 1) {
      const at = absoluteNow();
      await Promise.all([
        post(server, 'Note', tokens[round] ?? '', { text: `warmup-${round}-u${round}` }),
        post(server, 'Todo', SERVICE_TOKEN, { title: `warmup-todo-${round}` }),
      ]);
      await sleep(round === 0 ? 1_000 : 200);
      const arrivals = [
        ...(await notes.arrivals(`warmup-${round}-u${round}`)),
        ...(await open.arrivals(`warmup-todo-${round}`)),
      ];
      warmupDeliveries += arrivals.length;
      warmupMs.push(Math.max(...arrivals) - at);
    }
    const [firstWarmupMs = Number.NaN, ...restWarmupMs] = warmupMs;
    console.log(
      `warm-up (${warmupDeliveries} deliveries): the first event after the joins reached every socket within ${firstWarmupMs.toFixed(0)} ms of the request; the next ${restWarmupMs.length} within ${Math.max(...restWarmupMs).toFixed(0)} ms`,
    );
    await notes.reset();
    await open.reset();
    await sleep(1_000);
    const results: Record<
      string,
      ReturnType<typeof score> & {
        loopMax: number;
        loopP99: number;
        loopInsideMax: number;
        gcPauseMax: number;
      }
    > = {};
    for (const phase of ['spaced', 'burst'] as const) {
      const expected: Expected[] = [];
      const phaseStart = Date.now();
      const stopProbe = loopProbe(server);
      const create = async (step: number) => {
        const user = phase === 'burst' ? step : step % USERS;
        const marker = `${phase}-${step}-u${user}`;
        const sentAt = absoluteNow();
        const note = post(server, 'Note', tokens[user] ?? '', { text: marker });
        expected.push({ marker, sentAt, sockets: socketsOf(user), fleet: 'notes' });
        if (phase === 'spaced' && step % 10 === 0) {
          const todo = `${phase}-todo-${step}`;
          expected.push({ marker: todo, sentAt, sockets: everyPublic, fleet: 'public' });
          await post(server, 'Todo', SERVICE_TOKEN, { title: todo });
        }
        await note;
      };
      if (phase === 'spaced') {
        for (let step = 0; step < STEPS; step += 1) {
          void create(step);
          await sleep(200);
        }
      } else await Promise.all(Array.from({ length: BURST }, (_, step) => create(step)));
      await sleep(3_000);
      const loop = await stopProbe();
      // The probe's next sample covers the phase's last 250 ms.
      await sleep(300);
      const inside = insideDelays(phaseStart, Date.now() - 300);
      const scored = score(
        expected,
        await notes.deliveries(`${phase}-`),
        await open.deliveries(`${phase}-`),
        ownerOf,
      );
      results[phase] = {
        ...scored,
        loopMax: loop.max,
        loopP99: loop.p99,
        loopInsideMax: inside.loopMs,
        gcPauseMax: inside.gcMs,
      };
      console.log(
        `${phase.padEnd(6)} deliveries ${scored.deliveries}  from commit: p50 ${scored.p50.toFixed(1)} ms  p99 ${scored.p99.toFixed(1)} ms  max ${scored.max.toFixed(1)} ms (owner-only p99 ${scored.notesP99.toFixed(1)}, public p99 ${scored.publicP99.toFixed(1)})  from request start: p50 ${scored.requestP50.toFixed(1)} p99 ${scored.requestP99.toFixed(1)}  missing ${scored.missing}  wrong ${scored.wrong}  loop delay max ${inside.loopMs.toFixed(0)} ms (GC pause max ${inside.gcMs.toFixed(0)}; /healthz from the fleet's core: max ${loop.max.toFixed(0)}, p99 ${loop.p99.toFixed(0)})`,
      );
      await notes.reset();
      await open.reset();
    }
    console.log(
      `memory: ${kbPerSocket.toFixed(1)} KB per socket (RSS growth over the joins, garbage collected before and after, less the young generations' growth of ${(youngGrowthKb / 1024).toFixed(1)} MB: ${kbPerSocketCollected.toFixed(1)} KB with it; JS heap ${heapKbPerSocket.toFixed(1)} KB). While sockets join, the RSS slope over the ramp's second half is ${kbPerSocketRss.toFixed(1)} KB, ${kbPerSocketSlope.toFixed(1)} KB less V8's young generation; settled RSS growth without collection: ${kbPerSocketSettled.toFixed(1)} KB`,
    );
    const machine = `${hasTaskset ? 'server on core 0, fleet on core 1' : 'not pinned'}; ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}`;
    const load = {
      sockets: SOCKETS,
      users: USERS,
      publicSockets: PUBLIC_SOCKETS,
      rampSeconds: RAMP_S,
      steps: STEPS,
      burst: BURST,
    };
    const row = (phase: string, goal: number) => {
      const r = results[phase];
      return r
        ? `| ${phase} | ${r.deliveries} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} (goal ≤ ${goal}) | ${r.max.toFixed(1)} | ${r.requestP50.toFixed(1)} / ${r.requestP99.toFixed(1)} | ${r.missing} | ${r.wrong} | ${r.loopInsideMax.toFixed(0)} (goal ≤ ${GOALS.loopDelay}) | ${r.gcPauseMax.toFixed(0)} | ${r.loopMax.toFixed(0)} |`
        : '';
    };
    const markdown = [
      `# Realtime fan-out (${new Date().toISOString().slice(0, 10)})`,
      '',
      `${SOCKETS} sockets of ${USERS} users on Note (owner-only reads), ${PUBLIC_SOCKETS} signed-out sockets on Todo, joining over ${RAMP_S} s; ${machine}. Latency: the record's commit (its created_date, stamped in the create's transaction) → the socket's update_model; also from the create request's start. The fleet is a light socket.io wire client over \`ws\`.`,
      '',
      '| phase | deliveries | p50 ms | p99 ms | max ms | from request start: p50 / p99 ms | missing | wrong | loop delay max ms | GC pause max ms | /healthz max ms |',
      '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
      row('spaced', GOALS.spacedP99),
      row('burst', GOALS.burstP99),
      '',
      "Loop delay and GC pauses are the server's own (`perf_hooks` inside it, through the memory probe); /healthz is a request every 20 ms from the bench's process, which shares core 1 with the fleet, so it also counts the client's own waits.",
      '',
      `Memory: ${kbPerSocket.toFixed(1)} KB per socket (goal ≤ ${GOALS.kbPerSocket}): the server's RSS growth over all the joins, with all garbage collected before and after (\`lib/memory-probe.mjs\`), less the growth of V8's young generations (the main thread's and the workers', ${(youngGrowthKb / 1024).toFixed(1)} MB; each grows in steps to a fixed cap whatever the load); ${kbPerSocketCollected.toFixed(1)} KB with it. Of it, JS heap ${heapKbPerSocket.toFixed(1)} KB. While sockets join, the old generation also holds garbage until its next collection: the RSS slope over the second half of the joins is ${kbPerSocketRss.toFixed(1)} KB per socket, ${kbPerSocketSlope.toFixed(1)} KB less V8's young generation (which grows in steps to a fixed cap whatever the load). Settled RSS growth without a collection: ${kbPerSocketSettled.toFixed(1)} KB per socket.`,
      '',
      `Warm-up, not counted above: ${WARMUP_ROUNDS} rounds of one Note and one Todo, 200 ms apart. The first event after the joins reached every socket within ${firstWarmupMs.toFixed(0)} ms of the request; the next ${restWarmupMs.length} within ${Math.max(...restWarmupMs).toFixed(0)} ms.`,
      '',
    ].join('\n');
    await writeResults(
      'realtime-fanout',
      {
        machine,
        load,
        results,
        warmupMs,
        kbPerSocket,
        kbPerSocketCollected,
        youngGrowthKb,
        heapKbPerSocket,
        kbPerSocketRss,
        kbPerSocketSlope,
        kbPerSocketSettled,
        goals: GOALS,
      },
      markdown,
    );
  } finally {
    await Promise.all([notes.close(), open.close()]);
  }
} catch (error) {
  console.error(server.logs().slice(-3000));
  throw error;
} finally {
  await server.stop();
  await removeServerData(setup);
  if (process.env.BENCH_DEBUG) console.log(`memory samples kept in ${MEMORY_FILE}`);
  else rmSync(MEMORY_FILE, { force: true });
}
