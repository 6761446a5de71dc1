// The real Base44 apps of `../shared/fixtures/real-apps/` (test data, never edited): each is installed with
// `npm ci` once per package-lock.json and Node version into a cache outside the clone (FIXTURE_CACHE_DIR,
// shared by every clone and run on the machine), copied to a scratch folder under e2e/.cache (git-ignored)
// with that node_modules linked in, built with its app id (the build cached beside the installs, by the
// fixture's files, the app id and the install) and served by a real server process. The small apps this
// repository writes for its own browser tests (e2e/fixtures/<name>: index.html and src/, no install of their
// own) are built with the workspace's Vite, React and @base44/sdk into the same build cache (prepareRepoApp).
// The browser side (what counts as a failure) is in real-apps-browser.ts.
import { execFile, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { startOpenAiDouble, type OpenAiDouble } from './openai-double';
import { AUTH_ENV, PASSWORD, SERVICE_TOKEN } from './auth-helpers';
import { REPO_ROOT, startServer, type RunningServer } from './server-process';

/** REAL_APPS_DIR holds the fixture apps, next to the repository (or REAL_APPS_DIR). */
export const REAL_APPS_DIR = process.env.REAL_APPS_DIR ?? resolve(REPO_ROOT, '../shared/fixtures/real-apps');

/** CACHE_DIR holds this clone's scratch copy of each app: its files, its node_modules (linked), its build. */
const CACHE_DIR = resolve(import.meta.dirname, '../.cache/real-apps');

/**
 * FIXTURE_CACHE_DIR keeps, outside the clone, each app's `npm ci` (`fixture-installs/`, one folder per
 * package-lock.json and Node version: installKey) and its builds (`fixture-builds/`), so a fresh clone (as
 * CI's) installs and builds nothing the machine did before. `rm -rf` it to start over.
 */
export const FIXTURE_CACHE_DIR = join(
  process.env.XDG_CACHE_HOME || join(homedir(), '.cache'),
  'queen-solana',
);
const INSTALLS_DIR = join(FIXTURE_CACHE_DIR, 'fixture-installs');
const BUILDS_DIR = join(FIXTURE_CACHE_DIR, 'fixture-builds');

const INSTALL_TIMEOUT_MS = 10 * 60_000;
const BUILD_TIMEOUT_MS = 3 * 60_000;
// Names, in a scratch folder's node_modules, the install it was linked from: another key links again.
const INSTALLED_MARK = 'node_modules/.queen-installed';

export type RealAppName = 'wellness' | 'camp-planner' | 'safereturn';

/** PreparedApp is a built fixture app: a real app's scratch folder, or a repository app's build in the cache. */
export interface PreparedApp {
  name: string;
  appId: string;
  /** dir is the scratch copy (or the cached build): `dist/` and `base44/` are served from it. */
  dir: string;
  /** projectDir is the `base44/` folder served when it is not dir's own. */
  projectDir?: string;
}

/** appIdOf is the app's `.app.jsonc` id, else a fixed one (wellness has no `.app.jsonc`). */
function appIdOf(name: RealAppName): string {
  const file = join(REAL_APPS_DIR, name, 'base44/.app.jsonc');
  if (!existsSync(file)) return `real-app-${name}`;
  return (JSON.parse(readFileSync(file, 'utf8')) as { id: string }).id;
}

function log(name: string, line: string): void {
  process.stdout.write(`[real-apps:${name}] ${line}\n`);
}

/**
 * run executes `npm args` (or `command args`) in dir, printing its output (npm's per-package `http` lines only
 * as a count every 10 s, so a cold install shows progress without flooding the log); it rejects with the last
 * output on a non-zero exit or after timeoutMs.
 */
function run(
  name: string,
  dir: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs: number,
  command: string[] = ['npm'],
): Promise<void> {
  const [program = 'npm', ...before] = command;
  const shown = [program === process.execPath ? 'node' : program, ...before, ...args]
    .join(' ')
    .replaceAll(`${REPO_ROOT}/`, '');
  return new Promise((resolveRun, reject) => {
    const started = Date.now();
    const child = spawn(program, [...before, ...args], {
      cwd: dir,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let tail = '';
    let fetched = 0;
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      tail = (tail + text).slice(-4000);
      for (const line of text.split('\n')) {
        if (line.startsWith('npm http ')) fetched += 1;
        else if (line.trim()) log(name, line.trimEnd());
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const progress = setInterval(() => {
      const seconds = Math.round((Date.now() - started) / 1000);
      log(name, `${shown}: ${seconds} s, ${fetched} package requests so far`);
    }, 10_000);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      clearInterval(progress);
      if (code === 0) return resolveRun();
      const why = signal ? `was stopped (${signal}, limit ${timeoutMs / 1000} s)` : `exited with ${code}`;
      reject(new Error(`\`${shown}\` in ${dir} ${why}. Last output:\n${tail}`));
    });
  });
}

/**
 * installKey names an install: the same package-lock.json on the same Node major version, platform and CPU
 * reuses the same node_modules (its native binaries, such as esbuild's and rollup's, are per platform).
 */
function installKey(name: RealAppName): string {
  const lock = readFileSync(join(REAL_APPS_DIR, name, 'package-lock.json'));
  const node = `node${process.versions.node.split('.')[0]}-${process.platform}-${process.arch}`;
  return `${name}-${createHash('sha256').update(lock).update(node).digest('hex').slice(0, 16)}`;
}

/**
 * intoCache makes the cache folder final with fill, in a temporary folder beside it that is renamed into
 * place when done: a rename is atomic, so another run, or an interrupted one, never sees a half-made folder
 * under the final name. When two runs make it at once, the first rename wins and the other's copy goes.
 */
async function intoCache(final: string, fill: (partial: string) => Promise<void>): Promise<void> {
  await mkdir(dirname(final), { recursive: true });
  const partial = `${final}.partial-${process.pid}-${randomBytes(4).toString('hex')}`;
  await mkdir(partial);
  try {
    await fill(partial);
    await rename(partial, final).catch((error: unknown) => {
      if (!existsSync(final)) throw error;
    });
  } finally {
    await rm(partial, { recursive: true, force: true });
  }
}

/** cachedInstall returns the folder of the app's installed node_modules for this key, installing it once. */
async function cachedInstall(name: RealAppName, key: string): Promise<string> {
  const final = join(INSTALLS_DIR, key);
  if (existsSync(final)) return final;
  log(name, `installing (npm ci, first run for this package-lock.json and Node) into ${final}`);
  const started = Date.now();
  await intoCache(final, async (partial) => {
    for (const file of ['package.json', 'package-lock.json', '.npmrc']) {
      const from = join(REAL_APPS_DIR, name, file);
      if (existsSync(from)) await cp(from, join(partial, file));
    }
    try {
      await run(name, partial, ['ci', '--no-audit', '--no-fund', '--loglevel=http'], {}, INSTALL_TIMEOUT_MS);
    } catch (error) {
      throw new Error(
        `Installing the fixture app ${name} failed. The real-apps tests need the npm registry ` +
          '(`npm config get registry`) once per package-lock.json; check it is reachable, then run the tests ' +
          `again (a broken install is redone; \`rm -rf ${INSTALLS_DIR}\` starts over).\n${(error as Error).message}`,
      );
    }
  });
  log(name, `installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return final;
}

/**
 * linkInstall gives the scratch folder its own node_modules made of hard links to the cached install's
 * files (a copy where the two sit on different file systems): Vite writes its own caches into it, and a
 * dev server serves from it, as from any app's node_modules, while the cached install is left as it was.
 */
async function linkInstall(name: RealAppName, install: string, dir: string, key: string): Promise<void> {
  const mark = join(dir, INSTALLED_MARK);
  if (existsSync(mark) && (await readFile(mark, 'utf8')) === key) return;
  const started = Date.now();
  const target = join(dir, 'node_modules');
  await rm(target, { recursive: true, force: true });
  const from = join(install, 'node_modules');
  await promisify(execFile)('cp', ['-al', from, target]).catch(async () => {
    await rm(target, { recursive: true, force: true });
    await cp(from, target, { recursive: true, verbatimSymlinks: true });
  });
  await writeFile(mark, key);
  log(name, `node_modules linked from ${install} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** sourceHash fingerprints the fixture's files (not node_modules or dist): their paths and contents. */
async function sourceHash(source: string): Promise<string> {
  const hash = createHash('sha256');
  const files = (await readdir(source, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => !/[/\\](node_modules|dist)[/\\]/.test(file.slice(source.length)))
    .sort();
  for (const file of files) hash.update(file.slice(source.length)).update(readFileSync(file));
  return hash.digest('hex').slice(0, 16);
}

/**
 * removeStaleScratch deletes this clone's scratch folders of the app named the old way (`<name>-<lock hash>`,
 * each with a full node_modules): the scratch folder is now `<name>` alone.
 */
async function removeStaleScratch(name: RealAppName): Promise<void> {
  const entries = await readdir(CACHE_DIR).catch(() => [] as string[]);
  for (const entry of entries) {
    if (new RegExp(`^${name}-[0-9a-f]{16}$`).test(entry)) {
      await rm(join(CACHE_DIR, entry), { recursive: true, force: true });
    }
  }
}

/**
 * prepareRealApp copies the fixture's files (not its node_modules or dist) into its scratch folder, links
 * in the cached install of its package-lock.json (running `npm ci` into the cache the first time on this
 * machine), and builds it with its app id.
 * camp-planner gets no VITE_BASE44_BACKEND_URL: tests give it `?server_url=`, so one build serves any port.
 */
export async function prepareRealApp(name: RealAppName): Promise<PreparedApp> {
  const source = join(REAL_APPS_DIR, name);
  if (!existsSync(join(source, 'package.json'))) {
    throw new Error(
      `The fixture app ${name} is missing: expected it in ${source} (set REAL_APPS_DIR to the folder holding ` +
        'wellness/, camp-planner/ and safereturn/).',
    );
  }
  const dir = join(CACHE_DIR, name);
  await mkdir(dir, { recursive: true });
  await removeStaleScratch(name);
  await cp(source, dir, {
    recursive: true,
    filter: (from) => !/[/\\](node_modules|dist)([/\\]|$)/.test(from.slice(source.length)),
  });

  const key = installKey(name);
  await linkInstall(name, await cachedInstall(name, key), dir, key);

  const appId = appIdOf(name);
  // A build is kept while the fixture's files, the app id and the install are the same (the stamp is
  // written last), here and in the machine's cache.
  const stamp = join(dir, 'dist/.queen-build');
  const wanted = `${await sourceHash(source)} ${appId} ${key}`;
  const built = existsSync(stamp) ? readFileSync(stamp, 'utf8') : '';
  if (built !== wanted) {
    const started = Date.now();
    const cached = join(
      BUILDS_DIR,
      `${name}-${createHash('sha256').update(wanted).digest('hex').slice(0, 16)}`,
    );
    await rm(join(dir, 'dist'), { recursive: true, force: true });
    if (existsSync(cached)) {
      await cp(cached, join(dir, 'dist'), { recursive: true });
      log(name, `build copied from ${cached} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    } else {
      await run(name, dir, ['run', 'build', '--silent'], { VITE_BASE44_APP_ID: appId }, BUILD_TIMEOUT_MS);
      await writeFile(stamp, wanted);
      await intoCache(cached, (partial) => cp(join(dir, 'dist'), partial, { recursive: true }));
      log(name, `built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
  }
  return { name, appId, dir };
}

/** REPO_APPS_DIR holds the small apps this repository writes for its browser tests. */
const REPO_APPS_DIR = resolve(import.meta.dirname, '../fixtures');

/**
 * prepareRepoApp builds e2e/fixtures/<name>, an app of this repository written as generated Base44 apps are
 * (index.html, src/, the SDK's client made in one place) but with no install of its own: the workspace's
 * Vite builds it, with its React and @base44/sdk. The build goes into the machine's build cache
 * (`fixture-builds/<name>-<hash>`, by the app's files, the app id and the workspace's package-lock.json),
 * once: about a second when it is not there. The app's project is projectDir (a `base44/` folder), unless
 * the spec serves it with a project of its own (sign-in-app: the one startSignInServer writes).
 */
export async function prepareRepoApp(
  name: string,
  options: { appId: string; projectDir?: string },
): Promise<PreparedApp> {
  const source = join(REPO_APPS_DIR, name);
  const wanted = `${await sourceHash(source)} ${options.appId} ${createHash('sha256')
    .update(readFileSync(join(REPO_ROOT, 'package-lock.json')))
    .digest('hex')
    .slice(0, 16)}`;
  const dir = join(BUILDS_DIR, `${name}-${createHash('sha256').update(wanted).digest('hex').slice(0, 16)}`);
  if (!existsSync(dir)) {
    const started = Date.now();
    const vite = join(dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin/vite.js');
    await intoCache(dir, (partial) =>
      run(
        name,
        source,
        ['build', '--outDir', join(partial, 'dist'), '--emptyOutDir'],
        { VITE_BASE44_APP_ID: options.appId },
        BUILD_TIMEOUT_MS,
        [process.execPath, vite],
      ),
    );
    log(name, `built in ${((Date.now() - started) / 1000).toFixed(1)} s into ${dir}`);
  }
  return {
    name,
    appId: options.appId,
    dir,
    ...(options.projectDir ? { projectDir: options.projectDir } : {}),
  };
}

/**
 * startRealAppServer serves a prepared app: its build, its `base44/` project and its app id, with an LLM
 * provider (the OpenAI-compatible double, closed when the server stops) for the apps' InvokeLLM calls.
 */
export async function startRealAppServer(
  app: PreparedApp,
  env: Record<string, string> = {},
): Promise<RunningServer & { llm: OpenAiDouble }> {
  const llm = await startOpenAiDouble();
  const server = await startServer({
    env: {
      ...AUTH_ENV,
      SITE_DIST: join(app.dir, 'dist'),
      PROJECT_DIR: app.projectDir ?? join(app.dir, 'base44'),
      APP_ID: app.appId,
      LLM_PROVIDER_URL: llm.baseUrl,
      ...env,
    },
  }).catch(async (error: unknown) => {
    await llm.close();
    throw error;
  });
  const stop = server.stop;
  return Object.assign(server, {
    llm,
    async stop() {
      try {
        return await stop();
      } finally {
        await llm.close();
      }
    },
  });
}

/** serviceApi sends a JSON request with the service-role token to path (e.g. `/api/app-logs/{app}`). */
export async function serviceApi<T = unknown>(
  server: RunningServer,
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<T> {
  const response = await fetch(`${server.url}${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${SERVICE_TOKEN}`, 'content-type': 'application/json' },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

/** createAppUser adds a verified user to the hosted app through the operator API. */
export async function createAppUser(
  server: RunningServer,
  app: PreparedApp,
  email: string,
  role: 'admin' | 'user' = 'user',
): Promise<void> {
  await serviceApi(server, `/api/apps/${app.appId}/admin/users`, {
    method: 'POST',
    body: { email, password: PASSWORD, role },
  });
}

/** ViteDevServer is an app running in Vite's dev server (`npx vite`) in its scratch folder. */
export interface ViteDevServer {
  url: string;
  output(): string;
  stop(): void;
}

/**
 * startViteDevServer runs the app's own `npx vite` on port with env (e.g. the vite plugin's
 * VITE_BASE44_APP_BASE_URL, which makes it proxy `/api` there) and resolves once it answers.
 */
export async function startViteDevServer(
  app: PreparedApp,
  port: number,
  env: Record<string, string>,
): Promise<ViteDevServer> {
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  // Its own process group: `npx` starts vite as a child, and both stop together.
  const child = spawn('npx', ['vite', '--host', '127.0.0.1', '--port', String(port), '--strictPort'], {
    cwd: app.dir,
    env: { ...process.env, VITE_BASE44_APP_ID: app.appId, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const stop = () => {
    if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    const answer = await fetch(url).catch(() => null);
    if (answer?.ok) return { url, output: () => output, stop };
    if (Date.now() > deadline || child.exitCode !== null) {
      stop();
      throw new Error(`vite did not start on ${url}:\n${output}`);
    }
    await new Promise((wait) => setTimeout(wait, 250));
  }
}
