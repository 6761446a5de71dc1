// Backend functions (Deno): a real server process (PGlite, NODE_ENV=production) on bench/fixtures/functions,
// whose `plain` function has no imports and whose `sdk` function imports `npm:@base44/sdk` and builds a
// client per call. Measured:
// - cold start: the first call after every process was stopped (a secret change restarts all functions),
//   COLD_RUNS times per function: Deno's start, the module's load, the socket, and the call;
// - warm invoke overhead: `plain` through `POST /api/apps/{app}/functions/plain` minus the same request sent
//   straight to its Deno process's Unix socket (found through the server's pid in DATA_DIR/server.json and
//   the child's initial environment), one call at a time, in alternating rounds; goal ≤ 1.5 ms at p50;
// - 50 concurrent invocations (BURSTS bursts, the first one cold): every one must answer 200;
// - memory: each function process's resident set (VmRSS) once warm.
import { readdir, readFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { AUTH_ENV, SERVICE_TOKEN } from '../../e2e/support/auth-helpers';
import { DEFAULT_APP_ID } from '../../e2e/support/sdk-client';
import { REPO_ROOT, startServer } from '../../e2e/support/server-process';
import { writeResults } from './lib/report';
import { median } from './lib/stats';

const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS ?? 10);
const WARM_CALLS = Number(process.env.BENCH_WARM_CALLS ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONCURRENT = 50;
const BURSTS = Number(process.env.BENCH_BURSTS ?? 5);
const GOAL_MS = 1.5;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};
const ms = (value: number) => value.toFixed(2);

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENT });
const socketAgent = new Agent({ keepAlive: true });

/** send makes one request (to a URL, or to a Unix socket's path) and resolves with status and milliseconds. */
function send(target: {
  url?: URL;
  socketPath?: string;
  path: string;
}): Promise<{ status: number; ms: number }> {
  return new Promise((resolveCall, reject) => {
    const startedAt = process.hrtime.bigint();
    const options = target.socketPath
      ? { socketPath: target.socketPath, path: target.path, agent: socketAgent }
      : { host: target.url?.hostname, port: target.url?.port, path: target.path, agent };
    const outgoing = request(
      {
        ...options,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': 2 },
      },
      (response) => {
        response.resume();
        response.on('end', () =>
          resolveCall({
            status: response.statusCode ?? 0,
            ms: Number(process.hrtime.bigint() - startedAt) / 1e6,
          }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end('{}');
  });
}

const project = join(REPO_ROOT, 'bench/fixtures/functions/base44');
const server = await startServer({
  env: { ...AUTH_ENV, LOG_LEVEL: 'warn', APP_ID: DEFAULT_APP_ID, PROJECT_DIR: project },
  database: 'pglite',
});
const base = new URL(server.url);
const fnPath = (name: string) => `/api/apps/${DEFAULT_APP_ID}/functions/${name}`;
let restarts = 0;

/** restartAll changes a secret: the server stops every function process (each starts on its next call). */
async function restartAll(): Promise<void> {
  restarts += 1;
  const response = await fetch(`${server.url}/api/apps/${DEFAULT_APP_ID}/admin/secrets/BENCH_RESTART`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${SERVICE_TOKEN}` },
    body: JSON.stringify({ value: `restart-${restarts}` }),
  });
  if (!response.ok) throw new Error(`secret change: ${response.status}`);
}

/** denoChildren are the server's function processes: pid, socket (from the initial environment), RSS in KiB. */
async function denoChildren(): Promise<{ pid: number; socket: string; rssKb: number }[]> {
  const info = JSON.parse(await readFile(join(server.dataDir, 'server.json'), 'utf8')) as { pid: number };
  const found: { pid: number; socket: string; rssKb: number }[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const status = await readFile(`/proc/${entry}/status`, 'utf8').catch(() => '');
    if (!new RegExp(`^PPid:\\s+${info.pid}$`, 'm').test(status)) continue;
    const environ = await readFile(`/proc/${entry}/environ`, 'utf8').catch(() => '');
    const socket = /(?:^|\0)B44_FUNCTION_SOCKET=([^\0]+)/.exec(environ)?.[1];
    if (!socket) continue;
    found.push({ pid: Number(entry), socket, rssKb: Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? NaN) });
  }
  return found;
}

const report: Record<string, unknown> = {};
let errors = 0;
const loadBefore = loadavg()[0] ?? 0;
try {
  // Packages are cached by the first start (not measured): then each cold start runs offline.
  for (const name of ['plain', 'sdk']) {
    const first = await send({ url: base, path: fnPath(name) });
    if (first.status !== 200)
      throw new Error(`${name} answered ${first.status}: ${server.logs().slice(-2000)}`);
  }

  const cold: Record<string, number[]> = { plain: [], sdk: [] };
  for (let run = 0; run < COLD_RUNS; run += 1) {
    for (const name of ['plain', 'sdk'] as const) {
      await restartAll();
      const call = await send({ url: base, path: fnPath(name) });
      if (call.status !== 200) errors += 1;
      cold[name]?.push(call.ms);
    }
  }
  console.log(
    `cold start p50: plain ${ms(median(cold.plain ?? []))} ms, sdk ${ms(median(cold.sdk ?? []))} ms (${COLD_RUNS} runs each)`,
  );

  // Warm: one plain process; its socket straight from the process.
  await restartAll();
  await send({ url: base, path: fnPath('plain') });
  const children = await denoChildren();
  if (children.length !== 1) throw new Error(`expected one function process, found ${children.length}`);
  const socketPath = children[0]?.socket as string;
  const rounds: { server: number[]; direct: number[] }[] = [];
  const loop = async (target: Parameters<typeof send>[0]) => {
    const times: number[] = [];
    for (let i = 0; i < WARM_CALLS; i += 1) {
      const call = await send(target);
      if (call.status !== 200) errors += 1;
      times.push(call.ms);
    }
    return times;
  };
  await loop({ url: base, path: fnPath('plain') });
  await loop({ socketPath, path: '/' });
  for (let round = 0; round < ROUNDS; round += 1) {
    rounds.push({
      direct: await loop({ socketPath, path: '/' }),
      server: await loop({ url: base, path: fnPath('plain') }),
    });
  }
  const perRound = rounds.map((round) => ({
    serverP50: median(round.server),
    directP50: median(round.direct),
    serverP99: percentile(round.server, 99),
    directP99: percentile(round.direct, 99),
  }));
  const overheadMs = median(perRound.map((round) => round.serverP50 - round.directP50));
  console.log(`warm overhead p50 ${ms(overheadMs)} ms (goal ≤ ${GOAL_MS} ms)`);

  // 50 at once, the first burst right after a restart (cold processes), then warm.
  await restartAll();
  const bursts: { errors: number; p50: number; max: number }[] = [];
  for (let burst = 0; burst < BURSTS; burst += 1) {
    const calls = await Promise.all(
      Array.from({ length: CONCURRENT }, () =>
        send({ url: base, path: fnPath(burst % 2 === 0 ? 'plain' : 'sdk') }).catch(() => ({
          status: 0,
          ms: NaN,
        })),
      ),
    );
    const failed = calls.filter((call) => call.status !== 200).length;
    errors += failed;
    bursts.push({
      errors: failed,
      p50: median(calls.map((call) => call.ms)),
      max: Math.max(...calls.map((call) => call.ms)),
    });
  }
  console.log(`50 concurrent × ${BURSTS}: ${bursts.reduce((sum, burst) => sum + burst.errors, 0)} errors`);

  // Memory: one warm process of each function.
  await restartAll();
  await send({ url: base, path: fnPath('plain') });
  const plainProcess = (await denoChildren())[0];
  await send({ url: base, path: fnPath('sdk') });
  const sdkProcess = (await denoChildren()).find((child) => child.pid !== plainProcess?.pid);
  const memory = {
    plainRssMb: (plainProcess?.rssKb ?? NaN) / 1024,
    sdkRssMb: (sdkProcess?.rssKb ?? NaN) / 1024,
  };
  console.log(`RSS: plain ${memory.plainRssMb.toFixed(1)} MB, sdk ${memory.sdkRssMb.toFixed(1)} MB`);

  Object.assign(report, {
    coldStartMs: {
      plain: { p50: median(cold.plain ?? []), p90: percentile(cold.plain ?? [], 90), runs: cold.plain },
      sdk: { p50: median(cold.sdk ?? []), p90: percentile(cold.sdk ?? [], 90), runs: cold.sdk },
    },
    warm: { callsPerRound: WARM_CALLS, overheadMs, perRound },
    concurrent: { calls: CONCURRENT, bursts },
    memory,
  });
} finally {
  agent.destroy();
  socketAgent.destroy();
  await server.stop();
}

const warm = report.warm as { overheadMs: number; perRound: Record<string, number>[] };
const cold = report.coldStartMs as Record<'plain' | 'sdk', { p50: number; p90: number }>;
const concurrent = report.concurrent as { bursts: { errors: number; p50: number; max: number }[] };
const memory = report.memory as { plainRssMb: number; sdkRssMb: number };
const pass = warm.overheadMs <= GOAL_MS && errors === 0;
const loadAfter = loadavg()[0] ?? 0;
const full = {
  date: new Date().toISOString(),
  machine: {
    node: process.version,
    cpus: cpus().length,
    loadAverage1mBefore: loadBefore,
    loadAverage1mAfter: loadAfter,
  },
  goal: { metric: 'warm invoke p50 minus direct-to-socket p50', ms: GOAL_MS, pass },
  errors,
  ...report,
};
const markdown = [
  '# Backend functions (Deno)',
  '',
  `${full.date} · Node ${process.version} · ${cpus().length} CPUs · load average ${loadBefore.toFixed(2)} → ${loadAfter.toFixed(2)} · server on PGlite, NODE_ENV=production, client in another process`,
  '',
  '| metric | value | goal |',
  '| --- | ---: | --- |',
  `| cold start p50, no imports (\`plain\`) | ${ms(cold.plain.p50)} ms (p90 ${ms(cold.plain.p90)}) | — |`,
  `| cold start p50, SDK import (\`sdk\`) | ${ms(cold.sdk.p50)} ms (p90 ${ms(cold.sdk.p90)}) | — |`,
  `| warm invoke overhead p50 (server − direct socket) | ${ms(warm.overheadMs)} ms | ≤ ${GOAL_MS} ms: ${warm.overheadMs <= GOAL_MS ? 'pass' : '**FAIL**'} |`,
  `| 50 concurrent invocations × ${concurrent.bursts.length} | ${concurrent.bursts.reduce((sum, burst) => sum + burst.errors, 0)} errors | 0: ${concurrent.bursts.every((burst) => burst.errors === 0) ? 'pass' : '**FAIL**'} |`,
  `| RSS per process, \`plain\` / \`sdk\` | ${memory.plainRssMb.toFixed(1)} / ${memory.sdkRssMb.toFixed(1)} MB | — |`,
  '',
  `Cold start: the first call after a secret change stopped every process (${COLD_RUNS} runs each): Deno's start, the module,`,
  'the socket and the call, packages already cached. Warm: one call at a time, ' +
    `${WARM_CALLS} calls per round, alternating rounds:`,
  '',
  '| round | through the server p50 / p99 ms | direct to the socket p50 / p99 ms |',
  '| ---: | ---: | ---: |',
  ...warm.perRound.map(
    (round, index) =>
      `| ${index + 1} | ${ms(round.serverP50 ?? NaN)} / ${ms(round.serverP99 ?? NaN)} | ${ms(round.directP50 ?? NaN)} / ${ms(round.directP99 ?? NaN)} |`,
  ),
  '',
  'Through the server: HTTP to the server, the app check, a minted service token, the header rewrite, the',
  'pooled process over its Unix socket, the answer streamed back, and the call recorded in the function logs.',
  `Concurrent bursts (the first right after a restart, so it includes starting processes; plain and sdk alternate): ${concurrent.bursts
    .map((burst) => `p50 ${ms(burst.p50)} ms, max ${ms(burst.max)} ms`)
    .join(' · ')}.`,
  '',
].join('\n');
await writeResults('functions', full, markdown);
console.log(`functions: overhead ${ms(warm.overheadMs)} ms, ${errors} errors: ${pass ? 'pass' : 'FAIL'}`);
if (!pass) process.exitCode = 1;
