// A memory probe to load into a benchmarked server (`--import=<this file's absolute path>` in NODE_OPTIONS).
// - Every 250 ms it appends `<epoch ms> <RSS KB> <young generation KB> <loop delay ms> <GC pause ms>` to
//   MEMORY_PROBE_FILE. V8 grows each thread's young generation (up to 32 MB on 64-bit, whatever the load) in
//   steps when allocation runs high; one step inside a measured window reads as several KB per socket, so
//   the realtime bench takes them (the main thread's and the workers', summed) out of the RSS. The last two
//   are the longest event-loop delay and the longest garbage collection pause in those 250 ms, seen from
//   inside the server (a client on a busy core sees its own delays too).
// - On SIGUSR2 it runs two full garbage collections, then appends `gc <epoch ms> <RSS KB> <JS heap used KB>`:
//   what the process keeps, without the garbage the old generation holds until its next collection (then
//   the JS heap committed, V8's external memory and the young generations, in KB).
import { appendFileSync } from 'node:fs';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { BroadcastChannel, isMainThread, threadId } from 'node:worker_threads';

const file = process.env.MEMORY_PROBE_FILE;
/** @param {number} bytes */
const kb = (bytes) => Math.round(bytes / 1024);
// The loop-delay timer's own period, taken off what it reports.
const LOOP_RESOLUTION_MS = 10;
/** youngKb is this thread's young generation (KB): each thread's grows in steps to a fixed cap. */
const youngKb = () =>
  kb(getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0);
// NODE_OPTIONS' --import runs in the server's worker threads too (PGlite's, the schema checks'): only the
// main thread samples, or a worker's loop busy with SQL would read as the server's event-loop delay. A
// worker only tells the main thread its young generation: PGlite's grew from 16 to 32 MB while sockets
// joined in one run, 1.5 KB per socket that no socket holds.
const youngChannel = file ? new BroadcastChannel('memory-probe-young') : null;
youngChannel?.unref();
if (youngChannel && !isMainThread) {
  setInterval(() => youngChannel.postMessage({ threadId, youngKb: youngKb() }), 250).unref();
}
/** workersYoung is each worker's last report, by thread id: its young generation (KB) and when (epoch ms). */
const workersYoung = new Map();
if (youngChannel && isMainThread) {
  youngChannel.onmessage = ({ data }) =>
    workersYoung.set(data.threadId, { youngKb: data.youngKb, at: Date.now() });
}
/** allYoungKb is the young generations of the server's live threads (KB): a worker silent for 5 s has ended. */
const allYoungKb = () => {
  let sum = youngKb();
  for (const [id, report] of workersYoung) {
    if (Date.now() - report.at > 5_000) workersYoung.delete(id);
    else sum += report.youngKb;
  }
  return sum;
};
if (file && isMainThread) {
  const loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  loop.enable();
  let gcPauseMs = 0;
  new PerformanceObserver((entries) => {
    for (const entry of entries.getEntries()) gcPauseMs = Math.max(gcPauseMs, entry.duration);
  }).observe({ entryTypes: ['gc'] });
  setInterval(() => {
    const loopMs = Math.max(0, loop.max / 1e6 - LOOP_RESOLUTION_MS);
    appendFileSync(
      file,
      `${Date.now()} ${kb(process.memoryUsage.rss())} ${allYoungKb()} ${loopMs.toFixed(1)} ${gcPauseMs.toFixed(1)}\n`,
    );
    loop.reset();
    gcPauseMs = 0;
  }, 250).unref();
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc');
  process.on('SIGUSR2', () => {
    gc();
    // Freed pages go back to the OS in the background: read the RSS a moment later.
    setTimeout(() => {
      gc();
      const { rss, heapUsed, heapTotal, external } = process.memoryUsage();
      appendFileSync(
        file,
        `gc ${Date.now()} ${kb(rss)} ${kb(heapUsed)} ${kb(heapTotal)} ${kb(external)} ${allYoungKb()}\n`,
      );
    }, 1_000);
  });
}
