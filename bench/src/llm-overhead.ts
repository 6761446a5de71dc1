// LLM overhead: what Core.InvokeLLM adds over calling the provider directly. A real server process (PGlite)
// speaks to the OpenAI-compatible double (e2e/support/openai-double.ts, in this process), which answers
// after PROVIDER_MS like a (very fast) model; 50 closed-loop clients call either the double's chat
// completions directly or InvokeLLM (signed in, usage recorded per call), in alternating rounds; the
// overhead is InvokeLLM's p50 minus the mean p50 of the direct rounds around it (the shared machine
// drifts), against the goal of 2 ms. Without the provider's delay the 50 clients would only
// measure which of the two saturates the two shared cores first (a queue, not an overhead).
import { mkdir, writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { AUTH_ENV, SERVICE_TOKEN } from '../../e2e/support/auth-helpers';
import { startOpenAiDouble } from '../../e2e/support/openai-double';
import { DEFAULT_APP_ID } from '../../e2e/support/sdk-client';
import { REPO_ROOT, startServer } from '../../e2e/support/server-process';
import { median } from './lib/stats';

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const GOAL_MS = 2;
/** PROVIDER_MS is how long the double takes to answer: a real model takes longer still (hundreds of ms). */
const PROVIDER_MS = Number(process.env.BENCH_PROVIDER_MS ?? 100);
const PROMPT = `Summarise the weather in one sentence. [delay:${PROVIDER_MS}]`;

interface Target {
  url: URL;
  body: string;
  headers: Record<string, string>;
}

interface Run {
  path: 'direct' | 'InvokeLLM';
  requests: number;
  errors: number;
  p50Ms: number;
  p99Ms: number;
  perSecond: number;
}

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function send(target: Target): Promise<number> {
  return new Promise((resolveStatus, reject) => {
    const outgoing = request(
      target.url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(target.body),
          ...target.headers,
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolveStatus(response.statusCode ?? 0));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(target.body);
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

/** load runs CONCURRENCY closed-loop clients for SECONDS and reports latency percentiles. */
async function load(path: Run['path'], target: Target): Promise<Run> {
  const latencies: number[] = [];
  let errors = 0;
  const endAt = Date.now() + SECONDS * 1000;
  const client = async () => {
    while (Date.now() < endAt) {
      const startedAt = process.hrtime.bigint();
      const status = await send(target).catch(() => 0);
      const ms = Number(process.hrtime.bigint() - startedAt) / 1e6;
      if (status === 200) latencies.push(ms);
      else errors += 1;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, client));
  latencies.sort((a, b) => a - b);
  const run = {
    path,
    requests: latencies.length,
    errors,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    perSecond: latencies.length / SECONDS,
  };
  console.log(
    `  ${path}: ${run.requests} calls (${run.errors} errors), p50 ${run.p50Ms.toFixed(2)} ms, p99 ${run.p99Ms.toFixed(2)} ms, ${run.perSecond.toFixed(0)}/s`,
  );
  return run;
}

const double = await startOpenAiDouble();
const server = await startServer({
  env: {
    ...AUTH_ENV,
    LOG_LEVEL: 'warn',
    LLM_PROVIDER_URL: double.baseUrl,
    LLM_MODEL: 'bench-model',
    LLM_DAILY_TOKEN_BUDGET: '1000000000000',
    INTEGRATION_RATE_LIMIT_PER_MINUTE: '1000000',
    INTEGRATION_RATE_LIMIT_PER_USER_PER_MINUTE: '1000000',
  },
  database: 'pglite',
});
const runs: Run[] = [];
try {
  // The service role: the server's own overhead is measured, not a user's limit of calls at once.
  const token = SERVICE_TOKEN;
  // The direct call sends what the server sends the provider for this prompt.
  const direct: Target = {
    url: new URL(`${double.baseUrl}/chat/completions`),
    body: JSON.stringify({ model: 'bench-model', messages: [{ role: 'user', content: PROMPT }] }),
    headers: {},
  };
  const invoke: Target = {
    url: new URL(`${server.url}/api/apps/${DEFAULT_APP_ID}/integration-endpoints/Core/InvokeLLM`),
    body: JSON.stringify({ prompt: PROMPT }),
    headers: { authorization: `Bearer ${token}` },
  };
  // Warm-up, not reported: connections, the JIT of both processes, the budget's first read.
  console.log('warm-up');
  await load('InvokeLLM', invoke);
  runs.push(await load('direct', direct));
  for (let round = 0; round < ROUNDS; round += 1) {
    runs.push(await load('InvokeLLM', invoke));
    runs.push(await load('direct', direct));
  }
} finally {
  agent.destroy();
  await server.stop();
  await double.close();
}

// Each InvokeLLM round against the mean of the direct rounds before and after it.
const overheads = runs.flatMap((run, index) => {
  if (run.path !== 'InvokeLLM') return [];
  const around = [runs[index - 1], runs[index + 1]].flatMap((other) => (other ? [other.p50Ms] : []));
  return [run.p50Ms - around.reduce((sum, value) => sum + value, 0) / around.length];
});
const overheadMs = median(overheads);
const errors = runs.reduce((sum, run) => sum + run.errors, 0);
const pass = overheadMs <= GOAL_MS && errors === 0;
const report = {
  date: new Date().toISOString(),
  machine: { node: process.version, cpus: cpus().length, loadAverage1m: loadavg()[0] },
  concurrency: CONCURRENCY,
  providerMs: PROVIDER_MS,
  secondsPerRound: SECONDS,
  goal: { metric: 'InvokeLLM p50 minus direct p50, 50 concurrent calls', ms: GOAL_MS, pass },
  overheadMs,
  overheadsPerRound: overheads,
  runs,
};
const ms = (value: number) => value.toFixed(2);
const markdown = [
  '# LLM overhead',
  '',
  `${report.date} · Node ${process.version} · ${cpus().length} CPUs · load ${loadavg()[0]?.toFixed(2)} · ${CONCURRENCY} closed-loop clients, ${SECONDS} s per round, provider double answering after ${PROVIDER_MS} ms, client and double in one process, server (PGlite) in another`,
  '',
  `**Overhead (median over ${overheads.length} rounds): ${ms(overheadMs)} ms at p50** · goal ≤ ${GOAL_MS} ms: ${pass ? 'pass' : 'FAIL'}`,
  '',
  '| round | path | calls | errors | p50 ms | p99 ms | calls/s |',
  '| ---: | --- | ---: | ---: | ---: | ---: | ---: |',
  ...runs.map(
    (run, index) =>
      `| ${index + 1} | ${run.path} | ${run.requests} | ${run.errors} | ${ms(run.p50Ms)} | ${ms(run.p99Ms)} | ${run.perSecond.toFixed(0)} |`,
  ),
  '',
  'direct: POST /v1/chat/completions to the double with the body the server would send. InvokeLLM: the same',
  'prompt through `Core/InvokeLLM` as a signed-in user: per-IP and per-user limits, caller, daily budget check,',
  'the provider call, and one llm_usage row written before the answer.',
  '',
].join('\n');
const results = join(REPO_ROOT, 'bench/results');
await mkdir(results, { recursive: true });
await writeFile(join(results, 'llm-overhead.json'), `${JSON.stringify(report, null, 2)}\n`);
await writeFile(join(results, 'llm-overhead.md'), markdown);
console.log(`overhead p50 ${ms(overheadMs)} ms (goal ≤ ${GOAL_MS} ms): ${pass ? 'pass' : 'FAIL'}`);
if (!pass) process.exitCode = 1;
