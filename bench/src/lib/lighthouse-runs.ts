import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import type Result from 'lighthouse/types/lhr/lhr';

import { CHROMIUM, CHROMIUM_FLAGS } from '../../../e2e/support/chromium';

export { CHROMIUM };
/** Lighthouse drives Chromium through chrome-launcher, headless, with the shared flags. */
export const CHROME_FLAGS = ['--headless=new', ...CHROMIUM_FLAGS];
export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export type CategoryId = (typeof CATEGORIES)[number];

/** FailedAudit is a scored audit below 1 in a category that did not reach 100. */
export interface FailedAudit {
  id: string;
  title: string;
  category: CategoryId;
  weight: number;
  score: number;
  displayValue: string | null;
  /** examples are up to three offending nodes (selector + snippet) or URLs from the audit's details. */
  examples: string[];
}

export interface RunValues {
  lighthouseVersion: string;
  hostUserAgent: string;
  /**
   * benchmarkIndex is Lighthouse's measure of the machine's CPU speed at the run (higher is faster): TBT,
   * simulated as the observed long tasks times 4, moves with it.
   */
  benchmarkIndex: number;
  /** scores are 0–100, like the report shows them. */
  scores: Record<CategoryId, number>;
  fcpMs: number;
  lcpMs: number;
  speedIndexMs: number;
  tbtMs: number;
  cls: number;
  totalByteWeight: number;
  requestCount: number;
  lcpElement: string | null;
  /** lcpPhases maps the LCP sub-parts (TTFB, load delay, load time, render delay) to ms. */
  lcpPhases: Record<string, number>;
  failedAudits: FailedAudit[];
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (value: Json | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** findAll walks details (plain JSON) depth-first and returns every object accepted by keep. */
function findAll(
  value: Json | undefined,
  keep: (node: JsonObject) => boolean,
  out: JsonObject[] = [],
): JsonObject[] {
  if (Array.isArray(value)) for (const item of value) findAll(item, keep, out);
  else if (isObject(value)) {
    if (keep(value)) out.push(value);
    else for (const child of Object.values(value)) findAll(child, keep, out);
  }
  return out;
}

const detailsOf = (audit: Result['audits'][string] | undefined): Json | undefined =>
  audit?.details === undefined ? undefined : (JSON.parse(JSON.stringify(audit.details)) as Json);

const text = (value: Json | undefined): string => (typeof value === 'string' ? value : '');

function describeNode(node: JsonObject): string {
  const label = [text(node.selector), text(node.snippet)].filter(Boolean).join(' ');
  return label || text(node.nodeLabel);
}

function examplesOf(audit: Result['audits'][string]): string[] {
  const details = detailsOf(audit);
  const nodes = findAll(details, (node) => node.type === 'node').map(describeNode);
  const urls = findAll(details, (node) => typeof node.url === 'string').map((node) => text(node.url));
  return [...new Set([...nodes, ...urls].filter(Boolean))].slice(0, 3);
}

function numeric(lhr: Result, id: string): number {
  const value = lhr.audits[id]?.numericValue;
  if (typeof value !== 'number') throw new Error(`Lighthouse result has no numericValue for ${id}`);
  return value;
}

function failedAudits(lhr: Result): FailedAudit[] {
  const failed: FailedAudit[] = [];
  for (const category of CATEGORIES) {
    const entry = lhr.categories[category];
    if (!entry || entry.score === 1) continue;
    for (const ref of entry.auditRefs) {
      const audit = lhr.audits[ref.id];
      if (!audit || audit.score === null || audit.score >= 1) continue;
      if (['notApplicable', 'manual', 'informative'].includes(audit.scoreDisplayMode)) continue;
      failed.push({
        id: ref.id,
        title: audit.title,
        category,
        weight: ref.weight,
        score: audit.score,
        displayValue: audit.displayValue ?? null,
        examples: examplesOf(audit),
      });
    }
  }
  return failed;
}

/** extract reads the numbers this bench reports out of one Lighthouse result. */
export function extract(lhr: Result): RunValues {
  const scores = {} as Record<CategoryId, number>;
  for (const id of CATEGORIES) scores[id] = Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const lcpDetails = detailsOf(lhr.audits['largest-contentful-paint-element']);
  const lcpNode = findAll(lcpDetails, (node) => node.type === 'node')[0];
  const lcpPhases: Record<string, number> = {};
  for (const row of findAll(
    lcpDetails,
    (node) => typeof node.phase === 'string' && typeof node.timing === 'number',
  ))
    lcpPhases[text(row.phase)] = Math.round(Number(row.timing));
  const requests = detailsOf(lhr.audits['network-requests']);
  return {
    lighthouseVersion: lhr.lighthouseVersion,
    hostUserAgent: lhr.environment.hostUserAgent,
    benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
    scores,
    fcpMs: numeric(lhr, 'first-contentful-paint'),
    lcpMs: numeric(lhr, 'largest-contentful-paint'),
    speedIndexMs: numeric(lhr, 'speed-index'),
    tbtMs: numeric(lhr, 'total-blocking-time'),
    cls: numeric(lhr, 'cumulative-layout-shift'),
    totalByteWeight: numeric(lhr, 'total-byte-weight'),
    requestCount: isObject(requests) && Array.isArray(requests.items) ? requests.items.length : Number.NaN,
    lcpElement: lcpNode ? describeNode(lcpNode) : null,
    lcpPhases,
    failedAudits: failedAudits(lhr),
  };
}

/**
 * runLighthouse runs Lighthouse (mobile, simulated throttling: the defaults) `runs` times, each in a fresh
 * Chromium. Raw reports go to rawDir for digging into a run.
 */
export async function runLighthouse(url: string, runs: number, rawDir: string): Promise<RunValues[]> {
  await mkdir(rawDir, { recursive: true });
  const values: RunValues[] = [];
  for (let run = 1; run <= runs; run++) {
    process.stdout.write(`lighthouse run ${run}/${runs} … `);
    const chrome = await launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS, logLevel: 'silent' });
    try {
      const result = await lighthouse(url, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        formFactor: 'mobile',
        onlyCategories: [...CATEGORIES],
      });
      if (!result) throw new Error('Lighthouse returned no result');
      if (result.lhr.runtimeError) throw new Error(`Lighthouse: ${result.lhr.runtimeError.message}`);
      await writeFile(join(rawDir, `run-${run}.json`), JSON.stringify(result.lhr));
      const measured = extract(result.lhr);
      values.push(measured);
      const { performance, accessibility, seo } = measured.scores;
      const practices = measured.scores['best-practices'];
      console.log(
        `perf ${performance} a11y ${accessibility} bp ${practices} seo ${seo}, ` +
          `LCP ${Math.round(measured.lcpMs)} ms, TBT ${Math.round(measured.tbtMs)} ms (CPU benchmark index ${measured.benchmarkIndex})`,
      );
    } finally {
      chrome.kill();
    }
  }
  return values;
}
