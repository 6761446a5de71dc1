// A CPU profiler to load into a benchmarked server: `BENCH_SERVER_NODE_OPTIONS=--import=<this file's absolute
// path>` (Node 20 refuses `--cpu-prof` in NODE_OPTIONS). It profiles each thread from start-up (NODE_OPTIONS'
// --import runs in worker threads too, such as PGlite's) and writes `server-<pid>-<thread id>.cpuprofile`
// to CPU_PROFILE_DIR (default: the working directory) when the server is told to stop (the main thread only),
// or after CPU_PROFILE_MS (default 60 s). Open it in Chromium's DevTools (Performance) or speedscope.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';

const session = new Session();
session.connect();
session.post('Profiler.enable', () => session.post('Profiler.start'));
let written = false;
function write() {
  if (written) return;
  written = true;
  session.post('Profiler.stop', (error, result) => {
    if (error) return;
    const file = join(
      process.env.CPU_PROFILE_DIR ?? process.cwd(),
      `server-${process.pid}-${threadId}.cpuprofile`,
    );
    writeFileSync(file, JSON.stringify(result.profile));
  });
}
process.once('SIGTERM', write);
process.once('beforeExit', write);
setTimeout(write, Number(process.env.CPU_PROFILE_MS ?? 60_000)).unref();
