// Runs every benchmark script in this folder one after the other (never in parallel: they would share the
// two cores) and exits non-zero if any of them failed. hot-path-ab.ts (`npm run bench:ab`) is not here: with a
// first build of the old ref and both stores it takes well over 5 minutes; run it on its own.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const BENCHMARKS = [
  'site-lighthouse.ts',
  'auth-throughput.ts',
  'entities-throughput.ts',
  'app-logs-throughput.ts',
  'database-worker.ts',
  'files-throughput.ts',
  'extraction-throughput.ts',
  'llm-overhead.ts',
  'agents-latency.ts',
  'functions-bench.ts',
  'regex-bystander.ts',
  'realtime-fanout.ts',
  'list-uncached.ts',
  'console-grid.ts',
  'console-logs.ts',
  'console-analytics.ts',
];

function run(script: string): Promise<number> {
  return new Promise((resolveCode, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, script)], {
      stdio: 'inherit',
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => resolveCode(code ?? (signal ? 1 : 0)));
  });
}

const failed: string[] = [];
for (const script of BENCHMARKS) {
  console.log(`\n=== ${script} ===`);
  const code = await run(script);
  if (code !== 0) failed.push(`${script} (exit ${code})`);
}
if (failed.length > 0) {
  console.error(`\nfailed: ${failed.join(', ')}`);
  process.exitCode = 1;
} else console.log(`\nall ${BENCHMARKS.length} benchmark(s) passed`);
