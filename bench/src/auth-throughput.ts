// Auth throughput: requests/s of `GET entities/User/me` (valid token) and of `POST auth/login`, each as a
// ratio to a bare JSON route (`GET /healthz`) of the same server, measured in the same run.
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
const EMAIL = 'bench@example.com';
const PASSWORD = 'bench-password-123456';
/** ME_GOAL is the share of the bare route `User/me` must reach (issue 9). */
const ME_GOAL = 0.4;

interface Measured {
  name: string;
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
}

async function measure(name: string, options: autocannon.Options): Promise<Measured> {
  process.stdout.write(`${name}: ${SECONDS} s with ${CONNECTIONS} connections… `);
  const result = await autocannon({ connections: CONNECTIONS, duration: SECONDS, ...options });
  const measured = {
    name,
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
  };
  console.log(`${Math.round(measured.requestsPerSecond)} req/s, p99 ${measured.p99Ms} ms`);
  return measured;
}

const server = await startServer({
  // Limits off for the measurement: the rate limiter would (rightly) answer most logins with 429.
  env: { AUTH_RATE_LIMIT_IP: '1000000', AUTH_RATE_LIMIT_ACCOUNT: '1000000', LOG_LEVEL: 'warn' },
});
try {
  await run(
    process.execPath,
    ['server/dist/cli.js', 'create-user', '--email', EMAIL, '--password', PASSWORD],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, DATA_DIR: server.dataDir },
    },
  );
  const loginBody = JSON.stringify({ email: EMAIL, password: PASSWORD });
  const login = await fetch(`${server.url}/api/apps/${APP_ID}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: loginBody,
  });
  if (!login.ok) throw new Error(`login failed: HTTP ${login.status} ${await login.text()}`);
  const { access_token: token } = (await login.json()) as { access_token: string };

  const bareBefore = await measure('bare JSON route (GET /healthz)', { url: `${server.url}/healthz` });
  const me = await measure('GET entities/User/me', {
    url: `${server.url}/api/apps/${APP_ID}/entities/User/me`,
    headers: { authorization: `Bearer ${token}` },
  });
  const loginRun = await measure('POST auth/login', {
    url: `${server.url}/api/apps/${APP_ID}/auth/login`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: loginBody,
  });
  const bareAfter = await measure('bare JSON route again', { url: `${server.url}/healthz` });
  const bare = (bareBefore.requestsPerSecond + bareAfter.requestsPerSecond) / 2;

  const report = {
    date: new Date().toISOString(),
    machine: { node: process.version, cpus: cpus().length, loadAverage1m: loadavg()[0] },
    secondsPerRoute: SECONDS,
    connections: CONNECTIONS,
    bareRequestsPerSecond: bare,
    routes: [bareBefore, me, loginRun, bareAfter],
    ratios: { me: me.requestsPerSecond / bare, login: loginRun.requestsPerSecond / bare },
  };
  const percent = (value: number) => `${(value * 100).toFixed(1)} %`;
  const markdown = [
    '# Auth throughput',
    '',
    `${report.date} · Node ${process.version} · ${cpus().length} CPUs · autocannon, ${CONNECTIONS} connections, ${SECONDS} s per route, in the same process as the load (shared cores)`,
    '',
    '| route | requests/s | p99 | non-2xx | ratio to bare route |',
    '| --- | --- | --- | --- | --- |',
    ...report.routes.map(
      (route) =>
        `| ${route.name} | ${Math.round(route.requestsPerSecond)} | ${route.p99Ms} ms | ${route.non2xx} | ${percent(route.requestsPerSecond / bare)} |`,
    ),
    '',
    `Bare route = mean of the two bare runs (${Math.round(bare)} req/s). Login hashes with argon2id on purpose,`,
    'so its rate is bounded by the hash cost, not by the server.',
    '',
    '| goal | target | measured | |',
    '| --- | --- | --- | --- |',
    `| \`User/me\` vs bare | ≥ ${percent(ME_GOAL)} | ${percent(report.ratios.me)} | ${report.ratios.me >= ME_GOAL ? 'pass' : '**fail**'} |`,
    '',
  ].join('\n');
  const results = join(REPO_ROOT, 'bench/results');
  await mkdir(results, { recursive: true });
  await writeFile(join(results, 'auth-throughput.json'), `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(join(results, 'auth-throughput.md'), markdown);
  console.log(`\nme: ${percent(report.ratios.me)} of the bare route; login: ${percent(report.ratios.login)}`);
  if (me.non2xx > 0 || loginRun.non2xx > 0) throw new Error('some measured requests failed (non-2xx)');
} finally {
  await server.stop();
}
