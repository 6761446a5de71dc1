import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { FailedAudit, RunValues } from './lighthouse-runs';
import type { MainThreadCpu } from './main-thread-cpu';
import type { ParticlesCost } from './particles';
import type { ServedBytes } from './served-bytes';
import { KB } from './stats';

/** GoalRow is one line of the results table; goal and pass are null for metrics reported without a goal. */
export interface GoalRow {
  metric: string;
  median: string;
  goal: string | null;
  pass: boolean | null;
}

/** AuditSummary is a failed audit merged over all runs. */
export interface AuditSummary extends Omit<FailedAudit, 'score' | 'displayValue'> {
  failedRuns: number;
  scores: number[];
  displayValues: string[];
}

export interface SiteReport {
  date: string;
  /** market is the state of the market tile measured: the pre-launch text, or figures from a local double. */
  market: 'placeholder' | 'live';
  machine: {
    node: string;
    cpus: number;
    cpuModel: string;
    platform: string;
    /** 1-minute load average before and after: other work on the shared box inflates TBT and CPU numbers. */
    loadAverage1mBefore: number;
    loadAverage1mAfter: number;
    chromium: string;
    lighthouse: string;
  };
  runs: number;
  medians: Record<string, number>;
  goals: GoalRow[];
  lcpElements: Record<string, number>;
  lcpPhasesMedianMs: Record<string, number>;
  failedAudits: AuditSummary[];
  bytes: ServedBytes;
  particles: ParticlesCost;
  mainThreadCpu: MainThreadCpu;
  perRun: Omit<RunValues, 'failedAudits' | 'lighthouseVersion' | 'hostUserAgent'>[];
}

/** mergeFailedAudits groups the failed audits of every run by id, heaviest and most frequent first. */
export function mergeFailedAudits(runs: RunValues[]): AuditSummary[] {
  const byId = new Map<string, AuditSummary>();
  for (const run of runs)
    for (const audit of run.failedAudits) {
      const seen = byId.get(audit.id) ?? {
        id: audit.id,
        title: audit.title,
        category: audit.category,
        weight: audit.weight,
        examples: audit.examples,
        failedRuns: 0,
        scores: [],
        displayValues: [],
      };
      seen.failedRuns += 1;
      seen.scores.push(audit.score);
      if (audit.displayValue && !seen.displayValues.includes(audit.displayValue))
        seen.displayValues.push(audit.displayValue);
      byId.set(audit.id, seen);
    }
  return [...byId.values()].sort((a, b) => b.weight - a.weight || b.failedRuns - a.failedRuns);
}

const kb = (bytes: number): string => `${(bytes / KB).toFixed(1)} KB`;
const cell = (value: string): string => value.replace(/\|/g, '\\|').replace(/\s+/g, ' ');

/** resultsName is the file name (without extension) of a site report in bench/results. */
export function resultsName(market: SiteReport['market']): string {
  return market === 'live' ? 'site-lighthouse-live' : 'site-lighthouse';
}

/** toMarkdown renders the report as the results page. */
export function toMarkdown(report: SiteReport): string {
  const { bytes, particles, machine, mainThreadCpu: cpu } = report;
  const lines = [
    '# Site benchmark: Lighthouse mobile + particles cost',
    '',
    report.market === 'live'
      ? 'Market tile: **live figures** (a local DexScreener/GeckoTerminal double; its refresh script included).'
      : 'Market tile: the pre-launch text (the shipped placeholder address).',
    '',
    `${report.date} · Lighthouse ${machine.lighthouse} (mobile, simulated throttling) · median of ${report.runs} runs · ` +
      `${machine.chromium} · Node ${machine.node} · ${machine.cpus} CPUs (${machine.cpuModel}) · ` +
      `load average ${machine.loadAverage1mBefore.toFixed(1)} → ${machine.loadAverage1mAfter.toFixed(1)} · ` +
      `Lighthouse CPU benchmark index per run ${report.perRun.map((run) => run.benchmarkIndex).join(', ')} (higher is faster; TBT moves with it)`,
    '',
    '| Metric | Median | Goal | Result |',
    '| --- | --- | --- | --- |',
    ...report.goals.map(
      (row) =>
        `| ${row.metric} | ${row.median} | ${row.goal ?? '—'} | ${row.pass === null ? '—' : row.pass ? 'pass' : '**FAIL**'} |`,
    ),
    '',
    '## LCP element',
    '',
    ...Object.entries(report.lcpElements).map(
      ([element, runs]) => `- ${runs}/${report.runs} runs: \`${cell(element)}\``,
    ),
    '',
    `LCP phases (median ms): ${Object.entries(report.lcpPhasesMedianMs)
      .map(([phase, ms]) => `${phase} ${ms}`)
      .join(' · ')}`,
    '',
    '## JavaScript',
    '',
    '| File | Bytes (br) | When |',
    '| --- | --- | --- |',
    `| ${bytes.html.path} (HTML, ${bytes.html.contentEncoding ?? 'identity'}) | ${kb(bytes.html.wireBytes)} | first flight |`,
    ...bytes.initialJs.map(
      (file) =>
        `| ${file.path} (${file.contentEncoding ?? 'identity'}) | ${kb(file.wireBytes)} | before first paint |`,
    ),
    ...bytes.afterPaintJs.map(
      (file) =>
        `| ${file.path} (${file.contentEncoding ?? 'identity'}) | ${kb(file.wireBytes)} | right after first paint (hydration) |`,
    ),
    ...bytes.marketJs.map(
      (file) =>
        `| ${file.path} (${file.contentEncoding ?? 'identity'}) | ${kb(file.wireBytes)} | after first paint, only with live market figures |`,
    ),
    ...bytes.lazyJs.map((file) => `| /${file.file} | ${kb(file.brBytes)} | lazy |`),
    '',
    '## Failed audits (categories below 100)',
    '',
  ];
  if (report.failedAudits.length === 0) lines.push('None.');
  else {
    lines.push(
      '| Audit | Category | Weight | Failed runs | Value | Examples |',
      '| --- | --- | --- | --- | --- | --- |',
    );
    for (const audit of report.failedAudits)
      lines.push(
        `| \`${audit.id}\` ${cell(audit.title)} | ${audit.category} | ${audit.weight} | ${audit.failedRuns}/${report.runs} | ` +
          `${cell(audit.displayValues.join('; ')) || '—'} | ${audit.examples.map((example) => `\`${cell(example).slice(0, 160)}\``).join('<br>') || '—'} |`,
      );
  }
  lines.push(
    '',
    '## Particles (412×823, no throttling, 5 s window after 2 s settle)',
    '',
    `${particles.runningAnimations} running animations · ${particles.layoutsPerSecond.toFixed(1)} layouts/s · ` +
      `${particles.styleRecalcsPerSecond.toFixed(1)} style recalcs/s · main thread ${particles.mainThreadBusyPercent.toFixed(1)} % busy · ` +
      `${particles.longTasksInWindow} long tasks in the window (${particles.longTasksTotal} since navigation)`,
    '',
    `## Main thread after the first paint, in CPU time (412×823, traced like Lighthouse, median of ${cpu.loads} loads)`,
    '',
    `${cpu.cpuMs.toFixed(0)} ms of CPU in all · longest task ${cpu.longestTaskCpuMs.toFixed(1)} ms (${cpu.longestTaskParts || '—'}) · ` +
      `${cpu.longTasks} tasks over 50 ms at 4× · blocking at 4× ${cpu.blockingAt4xMs.toFixed(0)} ms. ` +
      "TBT from the tasks' own CPU time: on a shared machine a task's wall time also holds its waits for a core.",
    '',
    `Per-run values and everything above, unrounded: \`${resultsName(report.market)}.json\`. Raw Lighthouse reports: \`bench/.tmp/lighthouse/\`.`,
    '',
  );
  return lines.join('\n');
}

/** writeResults writes `bench/results/<name>.json` (everything, unrounded) and `<name>.md` (the page). */
export async function writeResults(name: string, json: unknown, markdown: string): Promise<void> {
  const results = resolve(import.meta.dirname, '../../results');
  await mkdir(results, { recursive: true });
  await writeFile(join(results, `${name}.json`), `${JSON.stringify(json, null, 2)}\n`);
  await writeFile(join(results, `${name}.md`), markdown.endsWith('\n') ? markdown : `${markdown}\n`);
}
