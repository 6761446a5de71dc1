// Site benchmark: Lighthouse mobile (median of 5) + served byte counts + the particles' main-thread cost.
// Run with `npm run bench:site`; needs `npm run build` first. BENCH_SITE_MARKET=live measures the page with
// the market tile showing figures (from a local double of its sources). See bench/README.md.
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { runLighthouse, type RunValues } from './lib/lighthouse-runs';
import { measureMainThreadCpu } from './lib/main-thread-cpu';
import { measureParticles } from './lib/particles';
import { mergeFailedAudits, resultsName, toMarkdown, type GoalRow, type SiteReport } from './lib/report';
import { fetchRaw, measureServedBytes } from './lib/served-bytes';
import { startMarketDouble, type MarketDouble } from '../../e2e/support/market-double';
import { REPO_ROOT, startServer, type RunningServer } from '../../e2e/support/server-process';
import { KB, median } from './lib/stats';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const MARKET: SiteReport['market'] = process.env.BENCH_SITE_MARKET === 'live' ? 'live' : 'placeholder';
const SITE_DIST = join(REPO_ROOT, 'site/dist');
const RESULTS_DIR = join(REPO_ROOT, 'bench/results');
const RAW_DIR = join(REPO_ROOT, 'bench/.tmp/lighthouse');

async function readHeroPrompt(): Promise<string> {
  const info: unknown = JSON.parse(await readFile(join(SITE_DIST, 'build-info.json'), 'utf8'));
  const prompt =
    typeof info === 'object' && info !== null && 'heroPrompt' in info ? info.heroPrompt : undefined;
  if (typeof prompt !== 'string' || !prompt) throw new Error('site/dist/build-info.json has no heroPrompt');
  return prompt;
}

async function readAppId(origin: string): Promise<string> {
  const html = await (await fetch(`${origin}/`)).text();
  const boot = /<script id="app-boot" type="application\/json">([\s\S]*?)<\/script>/.exec(html)?.[1];
  if (!boot) throw new Error('served HTML has no <script id="app-boot">');
  const parsed: unknown = JSON.parse(boot);
  const appId = typeof parsed === 'object' && parsed !== null && 'appId' in parsed ? parsed.appId : undefined;
  if (typeof appId !== 'string') throw new Error('app-boot JSON has no appId');
  return appId;
}

/** warmHero generates (once) the hero image, as the first visitor would; later loads get it inlined in the HTML. */
async function warmHero(origin: string): Promise<void> {
  const appId = await readAppId(origin);
  const response = await fetch(`${origin}/api/apps/${appId}/integration-endpoints/Core/GenerateImage`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: await readHeroPrompt() }),
  });
  if (!response.ok) throw new Error(`GenerateImage answered ${response.status}: ${await response.text()}`);
  const html = await (await fetch(`${origin}/`)).text();
  if (!/data-hero-state="ready"/.test(html))
    console.warn('warning: the served HTML does not show the ready hero');
}

/** warmMarket waits until the server has figures, so the first HTML carries them as a visitor's would. */
async function warmMarket(origin: string): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    if ((await fetch(`${origin}/api/market`)).ok) {
      if (!/data-market="live"/.test(await (await fetch(`${origin}/`)).text()))
        console.warn('warning: the served HTML does not show live market figures');
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('GET /api/market never answered 200 from the market double');
}

/**
 * warmPage asks for Home (brotli, as a browser does) until two answers are the same size: the server
 * recompresses a page asked for again at brotli's best in the background, so every visitor after the first
 * gets those bytes, and they are the ones measured.
 */
async function warmPage(origin: string): Promise<void> {
  // The second answer starts the recompression; then the size is read until it holds for a second.
  let last = (await fetchRaw(`${origin}/`)).wireBytes;
  let unchanged = 0;
  for (let attempt = 0; attempt < 50 && unchanged < 5; attempt += 1) {
    const { wireBytes } = await fetchRaw(`${origin}/`);
    unchanged = wireBytes === last ? unchanged + 1 : 0;
    last = wireBytes;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const ms = (value: number): string => `${Math.round(value)} ms`;
const goal = (metric: string, value: string, target: string | null, pass: boolean | null): GoalRow => ({
  metric,
  median: value,
  goal: target,
  pass,
});

function buildGoals(m: Record<string, number>, particles: SiteReport['particles']): GoalRow[] {
  const score = (name: string, key: string): GoalRow => goal(name, String(m[key]), '100', m[key] === 100);
  const num = (key: string): number => m[key] ?? Number.NaN;
  return [
    score('Performance', 'performance'),
    score('Accessibility', 'accessibility'),
    score('Best Practices', 'best-practices'),
    score('SEO', 'seo'),
    goal('FCP', ms(num('fcpMs')), null, null),
    goal('LCP', ms(num('lcpMs')), '≤ 1000 ms', num('lcpMs') <= 1000),
    goal('LCP, slowest run', ms(num('lcpSlowestMs')), '≤ 1300 ms', num('lcpSlowestMs') <= 1300),
    goal('Speed Index', ms(num('speedIndexMs')), null, null),
    goal('TBT', ms(num('tbtMs')), '≤ 50 ms', num('tbtMs') <= 50),
    goal('CLS', num('cls').toFixed(3), '0', num('cls') === 0),
    goal('Total byte weight', `${(num('totalByteWeight') / KB).toFixed(1)} KB`, null, null),
    goal('Requests', String(num('requestCount')), null, null),
    goal(
      'HTML with inline CSS (br)',
      `${(num('htmlBrBytes') / KB).toFixed(1)} KB`,
      '≤ 14 KB',
      num('htmlBrBytes') <= 14 * KB,
    ),
    goal(
      'JS before first paint (br)',
      `${(num('initialJsBrBytes') / KB).toFixed(1)} KB`,
      '≤ 65 KB',
      num('initialJsBrBytes') <= 65 * KB,
    ),
    goal(
      'Hydration JS, right after first paint (br)',
      `${(num('afterPaintJsBrBytes') / KB).toFixed(1)} KB`,
      '≤ 65 KB',
      num('afterPaintJsBrBytes') <= 65 * KB,
    ),
    goal(
      'Market refresh JS, live figures only (br)',
      `${(num('marketJsBrBytes') / KB).toFixed(1)} KB`,
      null,
      null,
    ),
    goal('Lazy JS chunks (br)', `${(num('lazyJsBrBytes') / KB).toFixed(1)} KB`, null, null),
    goal(
      'Particles: layouts/s',
      particles.layoutsPerSecond.toFixed(1),
      '0',
      particles.layoutsPerSecond === 0,
    ),
    goal('Particles: style recalcs/s', particles.styleRecalcsPerSecond.toFixed(1), null, null),
    goal('Particles: main thread busy', `${particles.mainThreadBusyPercent.toFixed(1)} %`, null, null),
    goal(
      'Particles: long tasks (> 50 ms)',
      String(particles.longTasksInWindow),
      '0',
      particles.longTasksInWindow === 0,
    ),
  ];
}

function countBy(values: (string | null)[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value ?? '(none)'] = (counts[value ?? '(none)'] ?? 0) + 1;
  return counts;
}

async function main(): Promise<void> {
  if (!existsSync(join(SITE_DIST, 'index.html')) || !existsSync(join(REPO_ROOT, 'server/dist/main.js'))) {
    console.error('run npm run build first');
    process.exit(1);
  }
  const loadBefore = loadavg();
  const market: MarketDouble | null = MARKET === 'live' ? await startMarketDouble() : null;
  const server: RunningServer = await startServer({ env: market?.env ?? {} });
  const onSignal = (signal: NodeJS.Signals): void => {
    void server
      .stop()
      .then(() => market?.close())
      .finally(() => process.kill(process.pid, signal));
  };
  process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
  try {
    console.log(`server at ${server.url}; warming the hero image …`);
    await warmHero(server.url);
    if (market) await warmMarket(server.url);
    await warmPage(server.url);
    const bytes = await measureServedBytes(server.url, SITE_DIST);
    const runs: RunValues[] = await runLighthouse(`${server.url}/`, RUNS, RAW_DIR);
    console.log('particles: 2 s settle + 5 s CDP sampling …');
    const particles = await measureParticles(`${server.url}/`);
    console.log('main thread: 5 traced loads, CPU time of each task …');
    const mainThreadCpu = await measureMainThreadCpu(`${server.url}/`);

    const med = (pick: (run: RunValues) => number): number => median(runs.map(pick));
    const medians: Record<string, number> = {
      performance: med((run) => run.scores.performance),
      accessibility: med((run) => run.scores.accessibility),
      'best-practices': med((run) => run.scores['best-practices']),
      seo: med((run) => run.scores.seo),
      fcpMs: med((run) => run.fcpMs),
      lcpMs: med((run) => run.lcpMs),
      // Not a median: the issue bounds every run as well.
      lcpSlowestMs: Math.max(...runs.map((run) => run.lcpMs)),
      speedIndexMs: med((run) => run.speedIndexMs),
      tbtMs: med((run) => run.tbtMs),
      cls: med((run) => run.cls),
      totalByteWeight: med((run) => run.totalByteWeight),
      requestCount: med((run) => run.requestCount),
      htmlBrBytes: bytes.html.wireBytes,
      initialJsBrBytes: bytes.initialJsWireBytes,
      lazyJsBrBytes: bytes.lazyJsBrBytes,
      afterPaintJsBrBytes: bytes.afterPaintJsWireBytes,
      marketJsBrBytes: bytes.marketJsWireBytes,
    };
    const phases = [...new Set(runs.flatMap((run) => Object.keys(run.lcpPhases)))];
    const first = runs[0];
    const report: SiteReport = {
      date: new Date().toISOString(),
      market: MARKET,
      machine: {
        node: process.version,
        cpus: cpus().length,
        cpuModel: cpus()[0]?.model ?? 'unknown',
        platform: `${process.platform} ${process.arch}`,
        loadAverage1mBefore: loadBefore[0] ?? Number.NaN,
        loadAverage1mAfter: loadavg()[0] ?? Number.NaN,
        chromium: `Chromium ${particles.chromiumVersion}`,
        lighthouse: first?.lighthouseVersion ?? 'unknown',
      },
      runs: runs.length,
      medians,
      goals: buildGoals(medians, particles),
      lcpElements: countBy(runs.map((run) => run.lcpElement)),
      lcpPhasesMedianMs: Object.fromEntries(
        phases.map((p) => [p, med((run) => run.lcpPhases[p] ?? Number.NaN)]),
      ),
      failedAudits: mergeFailedAudits(runs),
      bytes,
      particles,
      mainThreadCpu,
      perRun: runs.map(({ failedAudits: _f, lighthouseVersion: _v, hostUserAgent: _u, ...values }) => values),
    };
    await mkdir(RESULTS_DIR, { recursive: true });
    const name = resultsName(MARKET);
    await writeFile(join(RESULTS_DIR, `${name}.json`), `${JSON.stringify(report, null, 2)}\n`);
    const markdown = toMarkdown(report);
    await writeFile(join(RESULTS_DIR, `${name}.md`), markdown);
    console.log(`\n${markdown}`);
  } finally {
    const code = await server.stop();
    if (code !== 0) console.warn(`server exited with ${code}:\n${server.logs()}`);
    await market?.close();
  }
}

await main();
