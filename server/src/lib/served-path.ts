// Which files of a build folder (SITE_DIST) may be served: none of its dotfiles (`.env`, `.git/config`),
// and none whose real path, once symlinks are followed, lies outside the folder (a link to DATA_DIR).
import { realpathSync } from 'node:fs';
import { join, posix, sep } from 'node:path';

/** PUBLIC_DOT_FOLDER is the one dot-named folder a site publishes on purpose (RFC 8615). */
const PUBLIC_DOT_FOLDER = '.well-known';

/** hasDotSegment says a URL path names a dotfile or passes through a dot folder (`.well-known` aside). */
export function hasDotSegment(pathName: string): boolean {
  return posix
    .normalize(pathName)
    .split('/')
    .some((segment) => segment.startsWith('.') && segment !== PUBLIC_DOT_FOLDER);
}

const realRoots = new Map<string, string>();

/**
 * staysInRoot says the file pathName names under root, and its pre-compressed copies, resolve inside root
 * after symlinks, and not to a dotfile there. A file that does not exist passes (the static server answers 404 for it).
 * NB: synchronous because @fastify/static's allowedPath is; a few cached-inode lookups per file.
 */
export function staysInRoot(root: string, pathName: string): boolean {
  let realRoot = realRoots.get(root);
  if (realRoot === undefined) {
    realRoot = realpathSync(root);
    realRoots.set(root, realRoot);
  }
  const file = join(root, pathName);
  for (const candidate of [file, `${file}.br`, `${file}.gz`]) {
    let real: string;
    try {
      real = realpathSync(candidate);
    } catch {
      continue;
    }
    if (real !== realRoot && !real.startsWith(`${realRoot}${sep}`)) return false;
    // A link without a dot in its name may still lead to a dotfile (`envlink` → `.env`).
    if (hasDotSegment(real.slice(realRoot.length).split(sep).join('/'))) return false;
  }
  return true;
}

/** mayServe says a build folder's file may be sent: no dotfile, nothing outside root. */
export function mayServe(root: string, pathName: string): boolean {
  return !hasDotSegment(pathName) && staysInRoot(root, pathName);
}
