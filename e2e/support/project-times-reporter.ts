// A Playwright reporter that prints, at the end of a run, how long each project took: from its first test's
// start to its last test's end (projects overlap when workers are free), and its tests' summed time; then
// the slowest spec files by wall time (a file's tests run in one worker, one after another), which unlike
// test durations includes its beforeAll hooks: the servers it starts, where cutting repetition pays most.
// The figures in e2e/README.md come from it.
import type { FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { relative } from 'node:path';

interface Span {
  first: number;
  last: number;
  summed: number;
  tests: number;
}

const SLOWEST_FILES_SHOWN = 30;

/** specFileOf is the spec file test belongs to (a table's tests are declared in a support file). */
function specFileOf(test: TestCase): string {
  let suite: Suite | undefined = test.parent;
  while (suite && suite.type !== 'file') suite = suite.parent;
  return suite?.location?.file ?? test.location.file;
}

export default class ProjectTimesReporter implements Reporter {
  private readonly spans = new Map<string, Span>();
  private readonly fileSpans = new Map<string, { first: number; last: number }>();

  onTestEnd(test: TestCase, result: TestResult): void {
    const project = test.parent.project()?.name ?? 'unknown';
    const started = result.startTime.getTime();
    const span = this.spans.get(project) ?? { first: started, last: started, summed: 0, tests: 0 };
    span.first = Math.min(span.first, started);
    span.last = Math.max(span.last, started + result.duration);
    span.summed += result.duration;
    span.tests += 1;
    this.spans.set(project, span);
    const file = `${project} ${relative(process.cwd(), specFileOf(test))}`;
    const fileSpan = this.fileSpans.get(file) ?? { first: started, last: started };
    fileSpan.first = Math.min(fileSpan.first, started);
    fileSpan.last = Math.max(fileSpan.last, started + result.duration);
    this.fileSpans.set(file, fileSpan);
  }

  onEnd(result: FullResult): void {
    const seconds = (ms: number) => `${(ms / 1000).toFixed(0)} s`;
    console.log(`\nProject times (run ${result.status}, ${seconds(result.duration)} in all):`);
    for (const [project, span] of [...this.spans].sort(([a], [b]) => a.localeCompare(b))) {
      console.log(
        `  ${project.padEnd(18)} ${String(span.tests).padStart(4)} tests  span ${seconds(span.last - span.first).padStart(6)}  summed ${seconds(span.summed)}`,
      );
    }
    console.log('Slowest spec files (wall time, with their beforeAll hooks):');
    const walls = [...this.fileSpans].map(([file, { first, last }]) => [file, last - first] as const);
    const slowest = walls.sort(([, a], [, b]) => b - a).slice(0, SLOWEST_FILES_SHOWN);
    for (const [file, ms] of slowest) console.log(`  ${seconds(ms).padStart(6)}  ${file}`);
  }
}
