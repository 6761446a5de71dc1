import { chromium } from '@playwright/test';
import { CHROME_FLAGS, CHROMIUM } from './lighthouse-runs';

export interface ParticlesCost {
  chromiumVersion: string;
  windowSeconds: number;
  layoutsPerSecond: number;
  styleRecalcsPerSecond: number;
  /** mainThreadBusyPercent is TaskDuration / wall time over the window, in %. */
  mainThreadBusyPercent: number;
  /** longTasksInWindow counts long tasks (> 50 ms) during the sampling window; longTasksTotal since navigation. */
  longTasksInWindow: number;
  longTasksTotal: number;
  /** runningAnimations is document.getAnimations().length at the end of the window. */
  runningAnimations: number;
}

// Registered before any page script runs; stored on window so the count survives until we read it.
const LONG_TASK_PROBE = `
  window.__benchLongTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__benchLongTasks.push(entry.startTime + entry.duration);
  }).observe({ type: 'longtask', buffered: true });
`;

const metric = (metrics: { name: string; value: number }[], name: string): number => {
  const found = metrics.find((entry) => entry.name === name);
  if (!found) throw new Error(`CDP Performance.getMetrics has no ${name}`);
  return found.value;
};

/**
 * measureParticles opens url at 412×823 (no CPU throttling), lets it settle for 2 s, then diffs the CDP
 * Performance metrics over a 5 s window. No rAF probe runs in the page (it would itself force frames).
 */
export async function measureParticles(
  url: string,
  settleMs = 2000,
  windowMs = 5000,
): Promise<ParticlesCost> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: CHROME_FLAGS.filter((flag) => !flag.startsWith('--headless')),
  });
  try {
    const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
    const page = await context.newPage();
    await page.addInitScript({ content: LONG_TASK_PROBE });
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForTimeout(settleMs);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable', { timeDomain: 'timeTicks' });
    const windowStart = await page.evaluate<number>('performance.now()');
    const before = (await cdp.send('Performance.getMetrics')).metrics;
    await page.waitForTimeout(windowMs);
    const after = (await cdp.send('Performance.getMetrics')).metrics;
    const delta = (name: string): number => metric(after, name) - metric(before, name);
    const seconds = delta('Timestamp');
    const longTaskEnds = await page.evaluate<number[]>('window.__benchLongTasks ?? []');
    return {
      chromiumVersion: browser.version(),
      windowSeconds: seconds,
      layoutsPerSecond: delta('LayoutCount') / seconds,
      styleRecalcsPerSecond: delta('RecalcStyleCount') / seconds,
      mainThreadBusyPercent: (delta('TaskDuration') / seconds) * 100,
      longTasksInWindow: longTaskEnds.filter((end) => end >= windowStart).length,
      longTasksTotal: longTaskEnds.length,
      runningAnimations: await page.evaluate<number>('document.getAnimations().length'),
    };
  } finally {
    await browser.close();
  }
}
