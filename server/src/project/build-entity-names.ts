// Which entities a hosted build's scripts name. Minifiers keep property names, so `base44.entities.Trip`
// survives in dist/ as `.entities.Trip`; the server compares these names with the project's entities at
// start and says which the repository does not declare (issue 19: the GitHub sync writes only some).
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** Bounds of the scan: a build is a handful of chunks; anything larger is read only in part. */
const MAX_SCRIPTS = 200;
const MAX_SCRIPT_BYTES = 20_000_000;
const MAX_DEPTH = 4;

// Linear patterns: a fixed prefix and one bounded class run each.
const NAMED = [
  /\.entities\.([A-Z][A-Za-z0-9_]{0,63})\b/g,
  /\.entities\[["']([A-Za-z][A-Za-z0-9_]{0,63})["']\]/g,
];

async function scripts(dir: string, depth: number, found: string[]): Promise<string[]> {
  const items = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const item of items) {
    if (found.length >= MAX_SCRIPTS) break;
    const path = join(dir, item.name);
    if (item.isDirectory() && depth < MAX_DEPTH) await scripts(path, depth + 1, found);
    else if (item.isFile() && /\.m?js$/.test(item.name)) found.push(path);
  }
  return found;
}

/** entityNamesInBuild returns the entity names dist's scripts use, sorted. */
export async function entityNamesInBuild(dist: string): Promise<string[]> {
  const names = new Set<string>();
  for (const script of await scripts(dist, 0, [])) {
    // An unreadable script names nothing: this runs at start, and must never stop it.
    const size = await stat(script).then(
      (found) => found.size,
      () => Infinity,
    );
    if (size > MAX_SCRIPT_BYTES) continue;
    const text = await readFile(script, 'utf8').catch(() => '');
    for (const pattern of NAMED) for (const match of text.matchAll(pattern)) names.add(match[1] as string);
  }
  return [...names].sort();
}

/** undeclaredEntities is which of the build's entity names the project lacks (the built-in User aside). */
export function undeclaredEntities(used: readonly string[], declared: Iterable<string>): string[] {
  const known = new Set([...declared].map((name) => name.toLowerCase()));
  return used.filter((name) => !known.has(name.toLowerCase()) && name !== 'User');
}
