// A memory probe to load into a benchmarked server (`--import=<this file's absolute path>` in NODE_OPTIONS).
// - Every 250 ms it appends `<epoch ms> <RSS KB> <young generation KB>` to MEMORY_PROBE_FILE. V8 grows its
//   young generation (up to 32 MB on 64-bit, whatever the load) in steps when allocation runs high; one step
//   inside a measured window reads as several KB per socket, so the realtime bench takes it out of the RSS.
// - On SIGUSR2 it runs two full garbage collections, then appends `gc <epoch ms> <RSS KB> <JS heap used KB>`:
//   what the process keeps, without the garbage the old generation holds until its next collection (then
//   the JS heap committed and V8's external memory, in KB).
import { appendFileSync } from 'node:fs';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

const file = process.env.MEMORY_PROBE_FILE;
/** @param {number} bytes */
const kb = (bytes) => Math.round(bytes / 1024);
if (file) {
  setInterval(() => {
    const young = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
    appendFileSync(file, `${Date.now()} ${kb(process.memoryUsage.rss())} ${kb(young?.space_size ?? 0)}\n`);
  }, 250).unref();
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc');
  process.on('SIGUSR2', () => {
    gc();
    // Freed pages go back to the OS in the background: read the RSS a moment later.
    setTimeout(() => {
      gc();
      const { rss, heapUsed, heapTotal, external } = process.memoryUsage();
      appendFileSync(file, `gc ${Date.now()} ${kb(rss)} ${kb(heapUsed)} ${kb(heapTotal)} ${kb(external)}\n`);
    }, 1_000);
  });
}
