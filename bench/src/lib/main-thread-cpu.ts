import { chromium } from '@playwright/test';
import { CHROME_FLAGS, CHROMIUM } from './lighthouse-runs';
import { median } from './stats';

/**
 * TRACE_CATEGORIES are those of Lighthouse's that matter here. Like Lighthouse, Playwright drives the page
 * with the DevTools `Runtime` domain on, so each `Error` the page creates captures a stack with source
 * positions: costs the page pays under Lighthouse and DevTools, but not for visitors.
 */
const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.stack',
  'v8',
  'disabled-by-default-v8.compile',
];

/** LIGHTHOUSE_CPU_SLOWDOWN is the mobile preset's CPU multiplier; a task over 50 ms there blocks. */
const LIGHTHOUSE_CPU_SLOWDOWN = 4;
const BLOCKING_MS = 50;
/** WINDOW_MS is how long after the first paint tasks are counted (the page is quiet well before). */
const WINDOW_MS = 5000;

export interface MainThreadCpu {
  loads: number;
  /** cpuMs is the main thread's CPU time in tasks after the first paint (median over loads). */
  cpuMs: number;
  /** longestTaskCpuMs is the longest task's CPU time (median over loads). */
  longestTaskCpuMs: number;
  /** longTasks counts tasks whose CPU time × 4 passes 50 ms (median over loads). */
  longTasks: number;
  /** blockingAt4xMs is Σ max(0, 4 × CPU time − 50 ms) over those tasks: TBT without the machine's waits. */
  blockingAt4xMs: number;
  /** longestTaskParts names what the longest task spent its time on, in the median load. */
  longestTaskParts: string;
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
}

interface LoadCpu {
  cpuMs: number;
  longestTaskCpuMs: number;
  longTasks: number;
  blockingAt4xMs: number;
  longestTaskParts: string;
}

/** Child events worth naming in a task's breakdown (the rest are their parts or bookkeeping). */
const PARTS = new Set([
  'ParseHTML',
  'UpdateLayoutTree',
  'Layout',
  'Paint',
  'Commit',
  'v8.evaluateModule',
  'V8.CollectSourcePositions',
  'FunctionCall',
  'RunMicrotasks',
  'FireAnimationFrame',
  'TimerFire',
  'EventDispatch',
  'MajorGC',
  'MinorGC',
]);

const cpuOf = (event: TraceEvent): number => (event.tdur ?? event.dur ?? 0) / 1000;

function analyse(events: TraceEvent[]): LoadCpu {
  const paint = events.find((event) => event.name === 'firstContentfulPaint');
  if (!paint) throw new Error('the trace has no firstContentfulPaint');
  const main = events.filter(
    (event) => event.pid === paint.pid && event.tid === paint.tid && event.ph === 'X',
  );
  const tasks = main.filter(
    (event) => event.name === 'RunTask' && event.ts >= paint.ts && event.ts < paint.ts + WINDOW_MS * 1000,
  );
  let cpuMs = 0;
  let longTasks = 0;
  let blockingAt4xMs = 0;
  let longest: TraceEvent | undefined;
  for (const task of tasks) {
    const cpu = cpuOf(task);
    cpuMs += cpu;
    const simulated = cpu * LIGHTHOUSE_CPU_SLOWDOWN;
    if (simulated > BLOCKING_MS) {
      longTasks += 1;
      blockingAt4xMs += simulated - BLOCKING_MS;
    }
    if (!longest || cpu > cpuOf(longest)) longest = task;
  }
  const parts: Record<string, number> = {};
  if (longest) {
    const end = longest.ts + (longest.dur ?? 0);
    for (const event of main)
      if (PARTS.has(event.name) && event.ts >= longest.ts && event.ts < end)
        parts[event.name] = (parts[event.name] ?? 0) + cpuOf(event);
  }
  const longestTaskParts = Object.entries(parts)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([name, ms]) => `${name} ${ms.toFixed(1)} ms`)
    .join(', ');
  return {
    cpuMs,
    longestTaskCpuMs: longest ? cpuOf(longest) : 0,
    longTasks,
    blockingAt4xMs,
    longestTaskParts,
  };
}

/**
 * measureMainThreadCpu loads url `loads` times, each in a fresh Chromium at Lighthouse's mobile viewport,
 * traced with Lighthouse's categories, and sums the page's main-thread tasks after the first paint in
 * CPU time, not wall time: on a shared 2-core machine the wall time of a task also holds the time the
 * thread waited for a core (Chromium's other processes, the server, other work), which Lighthouse's TBT
 * multiplies by 4 as if it were the page's.
 */
export async function measureMainThreadCpu(url: string, loads = 5): Promise<MainThreadCpu> {
  const results: LoadCpu[] = [];
  for (let load = 0; load < loads; load += 1) {
    // Playwright picks its own headless mode; Lighthouse's `--headless=new` is left out, as in particles.ts.
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: CHROME_FLAGS.filter((flag) => !flag.startsWith('--headless')),
    });
    try {
      const context = await browser.newContext({
        viewport: { width: 412, height: 823 },
        deviceScaleFactor: 1.75,
        isMobile: true,
        hasTouch: true,
      });
      const page = await context.newPage();
      await browser.startTracing(page, { categories: TRACE_CATEGORIES });
      await page.goto(url, { waitUntil: 'load' });
      await page.waitForTimeout(WINDOW_MS);
      const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
      results.push(analyse(trace.traceEvents));
    } finally {
      await browser.close();
    }
  }
  const med = (pick: (load: LoadCpu) => number) => median(results.map(pick));
  const longestTaskCpuMs = med((load) => load.longestTaskCpuMs);
  const typical = results.reduce((best, load) =>
    Math.abs(load.longestTaskCpuMs - longestTaskCpuMs) < Math.abs(best.longestTaskCpuMs - longestTaskCpuMs)
      ? load
      : best,
  );
  return {
    loads,
    cpuMs: med((load) => load.cpuMs),
    longestTaskCpuMs,
    longTasks: med((load) => load.longTasks),
    blockingAt4xMs: med((load) => load.blockingAt4xMs),
    longestTaskParts: typical.longestTaskParts,
  };
}
