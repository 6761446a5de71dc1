// The console's Logs page over 1,000,000 stored function calls (issue 24): from navigation to
// `/_/logs` to the first screen of calls, the same for a filtered permalink (`?function=…&status=error`),
// and a "Load older entries" click to the second page (keyset paging: as fast at the millionth row as at
// the first), in Debian's Chromium against the built server on this machine. The rows are seeded in one
// INSERT … SELECT generate_series into the server's PGlite while it is stopped. Medians of 5
// (`BENCH_RUNS`); goal ≤ 300 ms each.
import { PGlite } from '@electric-sql/pglite';
import { chromium, type Page } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { AUTH_ENV, SERVICE_TOKEN } from '../../e2e/support/auth-helpers';
import { CHROMIUM, CHROMIUM_FLAGS } from '../../e2e/support/chromium';
import { FIXTURE_PROJECT } from '../../e2e/support/entities-helpers';
import { startServer } from '../../e2e/support/server-process';
import { writeResults } from './lib/report';
import { median } from './lib/stats';

const APP_ID = 'queen-solana';
const ROWS = Number(process.env.BENCH_LOG_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const GOAL_MS = 300;
const ADMIN = { email: 'logs-admin@example.com', password: 'bench-password-123456' };
const env = { PROJECT_DIR: FIXTURE_PROJECT, ...AUTH_ENV, LOG_LEVEL: 'warn' };

/** seed adds ROWS calls over the last ~11.5 days (one a second), 20 functions, 1 in 50 failed. */
async function seed(dataDir: string): Promise<void> {
  const db = new PGlite(join(dataDir, 'pglite'));
  try {
    await db.query(
      `INSERT INTO app_function_logs
         (app_id, function_name, request_id, trigger, status, duration_ms, output, output_dropped, logged_at)
       SELECT $1, 'fn-' || (i % 20), 'bench-' || i, 'http', CASE WHEN i % 50 = 0 THEN 500 ELSE 200 END,
         i % 300, jsonb_build_array(jsonb_build_object('stream', 'stdout', 'line', 'call ' || i)), 0,
         now() - make_interval(secs => $2::int - i)
       FROM generate_series(1, $2::int) AS i`,
      [APP_ID, ROWS],
    );
    await db.query('ANALYZE app_function_logs');
  } finally {
    await db.close();
  }
}

/** shownAt waits for the calls table's first row and answers ms since the navigation started. */
async function shownAt(page: Page, url: string): Promise<number> {
  await page.goto(url, { waitUntil: 'commit' });
  const shown = await page.waitForFunction(
    () => {
      const page = globalThis as unknown as { document: { querySelector(selector: string): unknown } };
      return page.document.querySelector('tbody tr') ? performance.now() : 0;
    },
    undefined,
    { polling: 'raf', timeout: 30_000 },
  );
  return Number(await shown.jsonValue());
}

const dataDir = await mkdtemp(join(tmpdir(), 'queen-bench-logs-'));
try {
  // A first start migrates the database and makes the admin; the rows go in while the server is stopped.
  const first = await startServer({ env, dataDir, keepData: true, database: 'pglite' });
  const api = `${first.url}/api/apps/${APP_ID}`;
  const created = await fetch(`${api}/admin/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${SERVICE_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ...ADMIN, role: 'admin' }),
  });
  if (created.status !== 201) throw new Error(`admin: HTTP ${created.status}`);
  await first.stop();
  process.stdout.write(`  seeding ${ROWS} function calls… `);
  const seedStarted = performance.now();
  await seed(dataDir);
  console.log(`${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);

  const server = await startServer({ env, dataDir, keepData: true, database: 'pglite' });
  const firstScreen: number[] = [];
  const filtered: number[] = [];
  const older: number[] = [];
  try {
    const login = await fetch(`${server.url}/api/apps/${APP_ID}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    const { access_token: token } = (await login.json()) as { access_token: string };
    for (let i = 0; i < 3; i += 1) {
      const asked = performance.now();
      const answer = await fetch(`${server.url}/api/apps/${APP_ID}/admin/logs/functions`, {
        headers: { authorization: `Bearer ${SERVICE_TOKEN}` },
      });
      await answer.text();
      console.log(`  API first page: HTTP ${answer.status} in ${(performance.now() - asked).toFixed(0)} ms`);
    }
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
    try {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      await context.addInitScript({
        content: `sessionStorage.setItem('queen-console.access-token', ${JSON.stringify(token)});`,
      });
      const page = await context.newPage();
      // One warm-up visit (the browser's cache of the console's assets, as an operator's second visit).
      for (let run = 0; run <= RUNS; run += 1) {
        const all = await shownAt(page, `${server.url}/_/logs`);
        const loadOlder = await page.evaluate<number>(`(async () => {
          const button = [...document.querySelectorAll('button')].find((b) => b.textContent === 'Load older entries');
          if (!button) throw new Error('no Load older entries button');
          const rows = document.querySelectorAll('tbody tr').length;
          const started = performance.now();
          button.click();
          await new Promise((done) => {
            const check = () => (document.querySelectorAll('tbody tr').length > rows ? done() : requestAnimationFrame(check));
            check();
          });
          return performance.now() - started;
        })()`);
        const narrowed = await shownAt(page, `${server.url}/_/logs?function=fn-10&status=error`);
        if (process.env.BENCH_DEBUG)
          console.log(
            await page.evaluate(
              `performance.getEntriesByType('resource').map((e) => e.name.split('/').slice(-2).join('/').slice(0, 50) + ' ' + e.startTime.toFixed(0) + '→' + e.responseEnd.toFixed(0)).join('\\n') + '\\nDCL ' + performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd.toFixed(0)`,
            ),
          );
        if (run === 0) continue;
        firstScreen.push(all);
        older.push(loadOlder);
        filtered.push(narrowed);
        console.log(
          `  run ${run}: first screen ${all.toFixed(0)} ms, load older ${loadOlder.toFixed(0)} ms, filtered permalink ${narrowed.toFixed(0)} ms`,
        );
      }
    } finally {
      await browser.close();
    }
  } finally {
    const code = await server.stop();
    if (code !== 0) process.exitCode = 1;
  }
  const result = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? '', loadAverage1m: loadavg()[0] ?? 0 },
    rows: ROWS,
    runs: RUNS,
    firstScreenMs: { median: median(firstScreen), all: firstScreen },
    loadOlderMs: { median: median(older), all: older },
    filteredMs: { median: median(filtered), all: filtered },
    goalMs: GOAL_MS,
  };
  const pass = (ms: number) => (ms <= GOAL_MS ? 'yes' : 'no');
  const line = (label: string, values: number[], value: number) =>
    `| ${label} | ${value.toFixed(0)} ms | ${values.map((ms) => ms.toFixed(0)).join(', ')} | ≤ ${GOAL_MS} ms | ${pass(value)} |`;
  const markdown = [
    `# Console Logs page, ${ROWS.toLocaleString('en')} function calls`,
    '',
    `${result.date} · ${result.machine.cpus} CPUs (${result.machine.cpuModel}) · PGlite · medians of ${RUNS}`,
    '',
    '| measure | median | runs | goal | met |',
    '| --- | --- | --- | --- | --- |',
    line('navigation → first screen of calls', firstScreen, result.firstScreenMs.median),
    line('"Load older entries" → second page on screen', older, result.loadOlderMs.median),
    line('filtered permalink (function, status) → first screen', filtered, result.filteredMs.median),
  ].join('\n');
  await writeResults('console-logs', result, markdown);
  console.log(markdown);
  if ([result.firstScreenMs, result.loadOlderMs, result.filteredMs].some((ms) => ms.median > GOAL_MS))
    process.exitCode = 1;
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
