// Page-log ingestion: requests/s of `POST /api/app-logs/{appId}/log-user-in-app/{page}` (anonymous, as the
// vite plugin's beacon; and signed in, as `appLogs.logUserInApp`) as a ratio to a bare JSON route
// (`GET /healthz`) of the same server in the same run. Goal: ≥ 50 % of the bare route. Afterwards the
// stored views are counted (stats, service role), so a buffer that dropped views would show.
import { execFile } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import { REPO_ROOT, startServer } from '../../e2e/support/server-process';

const run = promisify(execFile);
const APP_ID = 'queen-solana';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
const GOAL = 0.5;
const SERVICE_TOKEN = 'bench-service-token-0123456789abcdefghijklmnopqrstuvwxyz';
const EMAIL = 'bench-logs@example.com';
const PASSWORD = 'bench-password-123456';

interface Measured {
  name: string;
  requestsPerSecond: number;
  p99Ms: number;
  ok: number;
  non2xx: number;
}

async function measure(name: string, options: autocannon.Options): Promise<Measured> {
  process.stdout.write(`${name}: ${SECONDS} s with ${CONNECTIONS} connections… `);
  const result = await autocannon({ connections: CONNECTIONS, duration: SECONDS, ...options });
  const measured = {
    name,
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    ok: result['2xx'],
    non2xx: result.non2xx,
  };
  console.log(`${Math.round(measured.requestsPerSecond)} req/s, p99 ${measured.p99Ms} ms`);
  return measured;
}

const server = await startServer({
  // The per-IP limit is off for the measurement: every request comes from one address.
  env: {
    SERVICE_TOKEN,
    APP_LOG_RATE_LIMIT_PER_MINUTE: '1000000',
    AUTH_RATE_LIMIT_IP: '1000000',
    LOG_LEVEL: 'warn',
  },
});
try {
  await run(
    process.execPath,
    ['server/dist/cli.js', 'create-user', '--email', EMAIL, '--password', PASSWORD],
    { cwd: REPO_ROOT, env: { ...process.env, DATA_DIR: server.dataDir, SERVICE_TOKEN } },
  );
  const login = await fetch(`${server.url}/api/apps/${APP_ID}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
  });
  if (!login.ok) throw new Error(`login failed: HTTP ${login.status} ${await login.text()}`);
  const { access_token: token } = (await login.json()) as { access_token: string };

  const logUrl = `${server.url}/api/app-logs/${APP_ID}/log-user-in-app/Home`;
  const beaconHeaders = {
    'content-type': 'application/json',
    'user-agent': 'Mozilla/5.0 (bench)',
    referer: `${server.url}/`,
  };
  const bareBefore = await measure('bare JSON route (GET /healthz)', { url: `${server.url}/healthz` });
  const anonymous = await measure('POST log-user-in-app (anonymous beacon)', {
    url: logUrl,
    method: 'POST',
    headers: beaconHeaders,
  });
  const signedIn = await measure('POST log-user-in-app (signed in)', {
    url: logUrl,
    method: 'POST',
    headers: { ...beaconHeaders, authorization: `Bearer ${token}` },
  });
  const bareAfter = await measure('bare JSON route again', { url: `${server.url}/healthz` });
  const bare = (bareBefore.requestsPerSecond + bareAfter.requestsPerSecond) / 2;

  // Reads write this instance's buffer first, so the count includes every acknowledged view.
  const statsResponse = await fetch(`${server.url}/api/app-logs/${APP_ID}/stats?page=Home`, {
    headers: { authorization: `Bearer ${SERVICE_TOKEN}` },
  });
  if (!statsResponse.ok) throw new Error(`stats failed: HTTP ${statsResponse.status}`);
  const stored = ((await statsResponse.json()) as { views: number }).views;
  const acknowledged = anonymous.ok + signedIn.ok;

  const report = {
    date: new Date().toISOString(),
    machine: { node: process.version, cpus: cpus().length, loadAverage1m: loadavg()[0] },
    secondsPerRoute: SECONDS,
    connections: CONNECTIONS,
    bareRequestsPerSecond: bare,
    routes: [bareBefore, anonymous, signedIn, bareAfter],
    ratios: {
      anonymous: anonymous.requestsPerSecond / bare,
      signedIn: signedIn.requestsPerSecond / bare,
    },
    goal: GOAL,
    views: { acknowledged, stored },
  };
  const percent = (value: number) => `${(value * 100).toFixed(1)} %`;
  const markdown = [
    '# Page-log ingestion throughput',
    '',
    `${report.date} · Node ${process.version} · ${cpus().length} CPUs (shared with other work; load ${loadavg()[0]?.toFixed(2)}) · PGlite · autocannon, ${CONNECTIONS} connections, ${SECONDS} s per route, in the same process as the load`,
    '',
    '| route | requests/s | p99 | non-2xx | ratio to bare route |',
    '| --- | --- | --- | --- | --- |',
    ...report.routes.map(
      (route) =>
        `| ${route.name} | ${Math.round(route.requestsPerSecond)} | ${route.p99Ms} ms | ${route.non2xx} | ${percent(route.requestsPerSecond / bare)} |`,
    ),
    '',
    `Bare route = mean of the two bare runs (${Math.round(bare)} req/s). Goal: page-log ingestion ≥ ${percent(GOAL)}`,
    `of the bare route. Views acknowledged (2xx): ${acknowledged}; stored afterwards: ${stored} (requests still`,
    'in flight when autocannon stopped counting are stored too: at most one per connection and run).',
    '',
  ].join('\n');
  const results = join(REPO_ROOT, 'bench/results');
  await mkdir(results, { recursive: true });
  await writeFile(join(results, 'app-logs-throughput.json'), `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(join(results, 'app-logs-throughput.md'), markdown);
  console.log(
    `\nanonymous: ${percent(report.ratios.anonymous)}, signed in: ${percent(report.ratios.signedIn)} of the bare route (goal ${percent(GOAL)}); stored ${stored} of ${acknowledged}`,
  );
  if (anonymous.non2xx > 0 || signedIn.non2xx > 0) throw new Error('some measured requests failed (non-2xx)');
  // autocannon stops counting with requests still in flight (at most one per connection and run): the
  // server stores those too, so stored may exceed acknowledged by that much, never fall short of it.
  if (stored < acknowledged || stored > acknowledged + 2 * CONNECTIONS) {
    throw new Error(`stored ${stored} views for ${acknowledged} acknowledged`);
  }
} finally {
  await server.stop();
}
