// Which files of an app repository entity inference reads: the front end's `src/` and the backend functions'
// `base44/functions/`, bounded so that a huge or hostile repository cannot stall the command or the start-up.
import { lstat, readdir } from 'node:fs/promises';
import { extname, join, relative, sep } from 'node:path';

/** MAX_SOURCE_FILE_BYTES is the largest file read (1 MB): bigger ones are bundles or data, not app code. */
export const MAX_SOURCE_FILE_BYTES = 1024 * 1024;

/** MAX_SOURCE_FILES is how many source files are read at most; the rest are reported as skipped. */
export const MAX_SOURCE_FILES = 5000;

/** MAX_TOTAL_SOURCE_BYTES bounds what is read and parsed in all (64 MB): parsing is the slow part. */
export const MAX_TOTAL_SOURCE_BYTES = 64 * 1024 * 1024;

/** MAX_ENTRIES_VISITED bounds the walk itself: a tree of many non-source files costs time too. */
const MAX_ENTRIES_VISITED = 100_000;

/** SOURCE_ROOTS are the folders read, relative to the app: the browser code and the functions' code. */
export const SOURCE_ROOTS = ['src', join('base44', 'functions')];

const SOURCE_EXTENSIONS = new Set(['.js', '.jsx', '.ts', '.tsx']);
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', '.git']);

/** SourceFile is one file to read: its absolute path and its path relative to the app (shown to people). */
export interface SourceFile {
  path: string;
  shown: string;
}

/** SkippedFile is a file (or folder) not read, and why. */
export interface SkippedFile {
  file: string;
  reason: string;
}

/**
 * listSourceFiles lists the app's source files under SOURCE_ROOTS, sorted. Symbolic links are never followed
 * (a link may point out of the app); node_modules, dist and .git are not entered; files over
 * MAX_SOURCE_FILE_BYTES, and those past MAX_SOURCE_FILES or MAX_TOTAL_SOURCE_BYTES, are reported in skipped.
 */
export async function listSourceFiles(
  appDir: string,
): Promise<{ files: SourceFile[]; skipped: SkippedFile[] }> {
  const files: SourceFile[] = [];
  const skipped: SkippedFile[] = [];
  const shown = (path: string) => relative(appDir, path).split(sep).join('/');
  let visited = 0;
  let bytes = 0;
  let full = false;
  const pending: string[] = [];
  for (const root of SOURCE_ROOTS) {
    const path = join(appDir, root);
    const stat = await lstat(path).catch(() => null);
    if (stat?.isSymbolicLink()) skipped.push({ file: shown(path), reason: 'symbolic link (not followed)' });
    else if (stat?.isDirectory()) pending.push(path);
  }
  while (pending.length > 0 && !full) {
    const dir = pending.shift() as string;
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => null);
    if (!entries) {
      skipped.push({ file: shown(dir), reason: 'folder cannot be read' });
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (++visited > MAX_ENTRIES_VISITED) {
        skipped.push({ file: shown(dir), reason: `stopped after ${MAX_ENTRIES_VISITED} entries` });
        full = true;
        break;
      }
      if (entry.isSymbolicLink()) {
        if (entry.name !== 'node_modules')
          skipped.push({ file: shown(path), reason: 'symbolic link (not followed)' });
        continue;
      }
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) pending.push(path);
        continue;
      }
      if (!entry.isFile() || !SOURCE_EXTENSIONS.has(extname(entry.name)) || entry.name.endsWith('.d.ts'))
        continue;
      if (files.length >= MAX_SOURCE_FILES) {
        skipped.push({
          file: shown(path),
          reason: `more than ${MAX_SOURCE_FILES} source files: the rest are not read`,
        });
        full = true;
        break;
      }
      const stat = await lstat(path).catch(() => null);
      if (!stat) skipped.push({ file: shown(path), reason: 'cannot be read' });
      else if (stat.size > MAX_SOURCE_FILE_BYTES)
        skipped.push({ file: shown(path), reason: 'larger than 1 MB' });
      else if (bytes + stat.size > MAX_TOTAL_SOURCE_BYTES) {
        skipped.push({ file: shown(path), reason: 'over the 64 MB read in all: the rest are not read' });
        full = true;
        break;
      } else {
        bytes += stat.size;
        files.push({ path, shown: shown(path) });
      }
    }
  }
  files.sort((a, b) => (a.shown < b.shown ? -1 : a.shown > b.shown ? 1 : 0));
  return { files, skipped };
}
