// `npm start`: build what is missing or out of date, then run the platform server in this process
// (so SIGTERM reaches the server's own graceful shutdown directly).
// `npm start -- --app PATH` hosts a Base44 app repository: PATH/base44 is the project, PATH/dist its build;
// `--check` prints what it would serve (app id, visibility, folders) and stops.
// Hosting another build (--app or SITE_DIST) rebuilds only the server: our own site is built just once, for
// its sign-in page, and never rebuilt for a start.
import { execSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '..');
const ownSiteDist = join(root, 'site/dist');

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  console.error(`Node ${process.versions.node} is too old: install Node 20.19+ or 22+.`);
  process.exit(1);
}

/** fail prints message on stderr and stops the start. */
function fail(message) {
  console.error(message);
  process.exit(1);
}

/** appIdOf reads the app id from PATH/base44/.app.jsonc (base44's CLI writes it), or null. */
function appIdOf(projectDir) {
  const file = join(projectDir, '.app.jsonc');
  if (!existsSync(file)) return null;
  // A JSONC file holding one id: comments and a trailing comma are what JSON.parse would refuse.
  const text = readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\/|(^|[^:"])\/\/.*$/gm, '$1')
    .replace(/,(\s*[}\]])/g, '$1');
  let id;
  try {
    id = JSON.parse(text).id;
  } catch {
    return null;
  }
  if (typeof id !== 'string') return null;
  // It is printed into a command to copy: only the characters an app id has (as APP_ID is checked).
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) fail(`${file}: "id" must be 1–64 letters, digits, "_" or "-".`);
  return id;
}

/**
 * buildEnvOf is the environment an app's build needs: its id, and for the late-2025 template (its
 * app-params reads VITE_BASE44_BACKEND_URL, the SDK's serverUrl, which has no same-origin default) the
 * origin users will open, else every API call goes to `null/api/…`.
 */
function buildEnvOf(app, id) {
  const appParams = ['js', 'jsx', 'ts', 'tsx']
    .map((ext) => join(app, `src/lib/app-params.${ext}`))
    .find((file) => existsSync(file));
  const wantsServerUrl =
    appParams !== undefined && readFileSync(appParams, 'utf8').includes('VITE_BASE44_BACKEND_URL');
  const origin =
    process.env.PUBLIC_URL?.trim() ||
    `http://${process.env.HOST?.trim() || '127.0.0.1'}:${process.env.PORT?.trim() || '8080'}`;
  return `VITE_BASE44_APP_ID=${id}${wantsServerUrl ? ` VITE_BASE44_BACKEND_URL=${origin}` : ''}`;
}

/** APP_ID_IN_BUILD finds the id a build was made with: the template's app-params, or a literal createClient. */
const APP_ID_IN_BUILD = [
  /["']app_id["']\s*,\s*\{\s*defaultValue\s*:\s*["']([A-Za-z0-9_-]{1,64})["']/g,
  /\bappId\s*:\s*["']([A-Za-z0-9_-]{8,64})["']/g,
];

/**
 * appIdOfBuild reads the app id `VITE_BASE44_APP_ID` put into dist/'s scripts, or null when there is not
 * exactly one. Bounded: at most 200 scripts of at most 20 MB each.
 */
function appIdOfBuild(dist) {
  const scripts = [];
  const walk = (dir, depth) => {
    let items;
    try {
      items = readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // an unreadable folder names no id
    }
    for (const item of items) {
      if (scripts.length >= 200) return;
      const path = join(dir, item.name);
      if (item.isDirectory() && depth < 4) walk(path, depth + 1);
      else if (item.isFile() && /\.m?js$/.test(item.name) && statSync(path).size <= 20_000_000)
        scripts.push(path);
    }
  };
  walk(dist, 0);
  const found = new Set();
  for (const script of scripts) {
    let text;
    try {
      text = readFileSync(script, 'utf8');
    } catch {
      continue;
    }
    for (const pattern of APP_ID_IN_BUILD) for (const match of text.matchAll(pattern)) found.add(match[1]);
  }
  return found.size === 1 ? [...found][0] : null;
}

/**
 * defaultVisibilityOf is the visibility an unmodified app needs: the Base44 template's AuthContext sends
 * an anonymous visitor to sign-in only when public-settings answers 403 auth_required (a private app), as
 * the hosted platform does for an app that requires login; without that shell the app decides itself.
 */
function defaultVisibilityOf(app) {
  const context = ['js', 'jsx', 'ts', 'tsx']
    .map((ext) => join(app, `src/lib/AuthContext.${ext}`))
    .find((file) => existsSync(file));
  return context && readFileSync(context, 'utf8').includes('auth_required') ? 'private_with_login' : null;
}

/** useAppRepository points PROJECT_DIR and SITE_DIST at an app repository, or says what is missing. */
function useAppRepository(path) {
  // npm runs scripts from the repository root; a relative PATH means from where `npm start` was typed.
  const app = resolve(process.env.INIT_CWD ?? process.cwd(), path);
  const projectDir = join(app, 'base44');
  const dist = join(app, 'dist');
  if (!existsSync(app)) fail(`--app ${path}: ${app} does not exist.`);
  if (!existsSync(join(dist, 'index.html'))) {
    const id = appIdOf(projectDir) ?? process.env.APP_ID?.trim() ?? '<app id>';
    fail(
      [
        `--app ${path}: ${dist} holds no build (no index.html). Build the app first:`,
        `  cd ${app}`,
        '  npm ci',
        `  ${buildEnvOf(app, id)} npm run build`,
        'then run `npm start -- --app ' + path + '` again.',
      ].join('\n'),
    );
  }
  // The app id: APP_ID, else base44/.app.jsonc, else the one the build was made with; never our own site's.
  if (!process.env.APP_ID?.trim() && !appIdOf(projectDir)) {
    const built = appIdOfBuild(dist);
    if (!built) {
      fail(
        `--app ${path}: no app id found (no base44/.app.jsonc, and ${dist} does not name exactly one): ` +
          'start again with APP_ID=<the VITE_BASE44_APP_ID the app was built with>.',
      );
    }
    process.env.APP_ID = built;
    console.log(`App id ${built}: the one ${dist} was built with (set APP_ID to choose another).`);
  }
  if (!existsSync(projectDir)) {
    console.log(`${app} has no base44/ folder: starting with no declared entities (see "entities infer").`);
  }
  if (!process.env.APP_VISIBILITY?.trim()) {
    const visibility = defaultVisibilityOf(app);
    if (visibility) {
      process.env.APP_VISIBILITY = visibility;
      console.log(
        `APP_VISIBILITY=${visibility}: the app's AuthContext sends anonymous visitors to sign-in only on a private app (set APP_VISIBILITY to choose another).`,
      );
    }
  }
  process.env.PROJECT_DIR = projectDir;
  process.env.SITE_DIST = dist;
  // The app's sources, for entity inference at start (the server reads, never writes, them).
  process.env.APP_SOURCE_DIR = app;
  console.log(`Hosting ${app}: project ${projectDir}, build ${dist}`);
}

let options;
try {
  options = parseArgs({
    options: { app: { type: 'string' }, check: { type: 'boolean' } },
    allowPositionals: false,
  }).values;
} catch (error) {
  fail(`${error.message}\nUsage: npm start [-- --app PATH [--check]]`);
}
if (options.app !== undefined) useAppRepository(options.app);
// --check: say what would be served (above) and stop, building and starting nothing.
if (options.check) process.exit(0);

const hostsOtherBuild =
  Boolean(process.env.SITE_DIST?.trim()) && resolve(process.env.SITE_DIST) !== ownSiteDist;
// Our own site is built from site.config.json; another app's build is used as it is.
const siteInputs = ['site/src', 'site/scripts', 'site/index.html', 'site/vite.config.ts'];
const serverInputs = ['server/src', 'server/scripts'];
const inputs = hostsOtherBuild ? serverInputs : [...siteInputs, ...serverInputs];
const stampFile = join(root, `node_modules/.cache/queen/${hostsOtherBuild ? 'server-' : ''}build-stamp`);
const outputs = hostsOtherBuild
  ? [join(root, 'server/dist/main.js')]
  : [join(ownSiteDist, 'index.html'), join(root, 'server/dist/main.js')];
const buildCommand = hostsOtherBuild ? 'npm run build -w server' : 'npm run build';

function newestMtime(path) {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(path).reduce(
    (newest, name) => Math.max(newest, newestMtime(join(path, name))),
    stats.mtimeMs,
  );
}

/** The build depends on the sources, the site config file and every SITE_* override. */
function fingerprint() {
  const hash = createHash('sha256');
  for (const input of inputs) hash.update(`${input}:${newestMtime(join(root, input))}\n`);
  if (hostsOtherBuild) return hash.digest('hex');
  const configPath = process.env.SITE_CONFIG ?? join(root, 'site.config.json');
  hash.update(existsSync(configPath) ? readFileSync(configPath) : 'no-config');
  for (const [name, value] of Object.entries(process.env).sort()) {
    if (name.startsWith('SITE_')) hash.update(`${name}=${value}\n`);
  }
  return hash.digest('hex');
}

// A hosted app's /login is our own site's sign-in page: build our site once if it never was.
if (hostsOtherBuild && !existsSync(join(ownSiteDist, 'login.html'))) {
  console.log('Building our own site once, for its sign-in page (/login)…');
  try {
    execSync('npm run build -w site', { cwd: root, stdio: 'inherit' });
  } catch {
    fail('The site build failed (see above). Fix the reported problem and run `npm start` again.');
  }
}

const current = fingerprint();
const previous = existsSync(stampFile) ? readFileSync(stampFile, 'utf8') : '';
if (outputs.some((file) => !existsSync(file)) || previous !== current) {
  console.log(
    hostsOtherBuild
      ? 'Building the server (first start, or sources changed)…'
      : 'Building the site and the server (first start, or sources/config changed)…',
  );
  try {
    execSync(buildCommand, { cwd: root, stdio: 'inherit' });
  } catch {
    fail('The build failed (see above). Fix the reported problem and run `npm start` again.');
  }
  mkdirSync(dirname(stampFile), { recursive: true });
  writeFileSync(stampFile, current);
}

process.chdir(root);
await import(pathToFileURL(join(root, 'server/dist/main.js')).href);
