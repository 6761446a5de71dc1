import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

/** shownPath names a project file as the loaders' messages do in tests: its last three segments. */
export const shownPath = (file: string) => file.split('/').slice(-3).join('/');

/**
 * useTempProjects returns projectWith, which writes files (path → text) into a new temporary folder and
 * returns it; the folders are removed after each test.
 */
export function useTempProjects(prefix: string): (files: Record<string, string>) => Promise<string> {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });
  return async (files) => {
    const dir = await mkdtemp(join(tmpdir(), `${prefix}-`));
    dirs.push(dir);
    for (const [path, text] of Object.entries(files)) {
      await mkdir(join(dir, path, '..'), { recursive: true });
      await writeFile(join(dir, path), text);
    }
    return dir;
  };
}
