// `npm start`: build what is missing or out of date, then run the platform server in this process
// (so SIGTERM reaches the server's own graceful shutdown directly).
import { execSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '..');
const stampFile = join(root, 'node_modules/.cache/queen/build-stamp');
const outputs = [join(root, 'site/dist/index.html'), join(root, 'server/dist/main.js')];
const inputs = [
  'site/src',
  'site/scripts',
  'site/index.html',
  'site/vite.config.ts',
  'server/src',
  'server/scripts',
];

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  console.error(`Node ${process.versions.node} is too old: install Node 20.19+ or 22+.`);
  process.exit(1);
}

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
  const configPath = process.env.SITE_CONFIG ?? join(root, 'site.config.json');
  hash.update(existsSync(configPath) ? readFileSync(configPath) : 'no-config');
  for (const [name, value] of Object.entries(process.env).sort()) {
    if (name.startsWith('SITE_')) hash.update(`${name}=${value}\n`);
  }
  return hash.digest('hex');
}

const current = fingerprint();
const previous = existsSync(stampFile) ? readFileSync(stampFile, 'utf8') : '';
if (outputs.some((file) => !existsSync(file)) || previous !== current) {
  console.log('Building the site and the server (first start, or sources/config changed)…');
  try {
    execSync('npm run build', { cwd: root, stdio: 'inherit' });
  } catch {
    console.error('The build failed (see above). Fix the reported problem and run `npm start` again.');
    process.exit(1);
  }
  mkdirSync(dirname(stampFile), { recursive: true });
  writeFileSync(stampFile, current);
}

process.chdir(root);
await import(pathToFileURL(join(root, 'server/dist/main.js')).href);
