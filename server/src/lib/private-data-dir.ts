// DATA_DIR holds the database, uploads, secrets and logs: no other local account may read or write any
// of it (issue 18, item 10; functions run as `nobody` when the server runs as root). Files are created with
// the process umask (PGlite's are 0666), so the folder is locked at start-up instead: DATA_DIR 0700 and
// everything under it owner-only. The one exception is a folder another account must reach (the Deno
// package cache of functions run as `nobody`): it keeps its modes, and DATA_DIR is then only traversable
// (0711: not listable), so that folder is the only one anyone else can open.
import { chmod, lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * MAX_VISITED_ENTRIES bounds the walk, which runs at every start: a PGlite folder has ~1,000 files, while
 * uploads (written 0600 since, in folders 0700) may be millions, so the upload folder is walked last.
 */
const MAX_VISITED_ENTRIES = 20_000;
const UPLOADS_FOLDER = 'files';

/**
 * makeDataDirPrivate makes dataDir and everything under it owner-only (folders 0700, files 0600), but the
 * top-level entries named in reachable, which keep their modes (dataDir is then 0711). Symbolic links are
 * left alone (chmod would follow them out of the folder). Returns how many entries it tightened.
 */
export async function makeDataDirPrivate(
  dataDir: string,
  reachable: readonly string[] = [],
): Promise<number> {
  const keep = new Set(reachable);
  const entries = await readdir(dataDir);
  await chmod(dataDir, entries.some((name) => keep.has(name)) ? 0o711 : 0o700);
  let tightened = 0;
  let visited = 0;
  const walk = async (path: string): Promise<void> => {
    if (visited++ >= MAX_VISITED_ENTRIES) return;
    const info = await lstat(path).catch(() => null);
    if (!info || info.isSymbolicLink()) return;
    const wanted = info.isDirectory() ? 0o700 : 0o600;
    if ((info.mode & 0o777) !== wanted) {
      await chmod(path, wanted).catch(() => undefined);
      tightened += 1;
    }
    if (info.isDirectory()) {
      // A folder's entries side by side: one after another, a PGlite folder took ~120 ms of every start.
      const names = await readdir(path).catch(() => []);
      await Promise.all(names.map((name) => walk(join(path, name))));
    }
  };
  const ordered = [
    ...entries.filter((name) => name !== UPLOADS_FOLDER),
    ...entries.filter((name) => name === UPLOADS_FOLDER),
  ];
  for (const name of ordered) if (!keep.has(name)) await walk(join(dataDir, name));
  return tightened;
}
