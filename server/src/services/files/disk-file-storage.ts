import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { newStorageKey, STORAGE_KEY_PATTERN, type ByteRange, type FileStorage } from './file-storage';

/**
 * createDiskFileStorage keeps files under dir (DATA_DIR/files), spread over 256 folders by the key's first
 * two digits. A file is written under a temporary name and renamed when complete, so a reader never sees
 * half a file. Only for a single instance (or a shared volume).
 */
export async function createDiskFileStorage(dir: string): Promise<FileStorage> {
  // Owner-only: any other local account (functions run as one) must not read uploads.
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const pathOf = (key: string) => join(dir, key.slice(0, 2), key);
  const statOf = async (key: string) => {
    if (!STORAGE_KEY_PATTERN.test(key)) return null;
    try {
      const info = await stat(pathOf(key));
      return { size: info.size };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  };
  return {
    kind: 'disk',
    async put(body: Readable) {
      const key = newStorageKey();
      const path = pathOf(key);
      await mkdir(join(dir, key.slice(0, 2)), { recursive: true, mode: 0o700 });
      const partial = `${path}.partial`;
      try {
        await pipeline(body, createWriteStream(partial, { flags: 'wx', mode: 0o600 }));
        await rename(partial, path);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
      const info = await stat(path);
      return { key, size: info.size };
    },
    async get(key: string, range?: ByteRange) {
      if (!(await statOf(key))) return null;
      return createReadStream(pathOf(key), range ? { start: range.start, end: range.end } : {});
    },
    stat: statOf,
    async delete(key: string) {
      if (!STORAGE_KEY_PATTERN.test(key)) return;
      await rm(pathOf(key), { force: true });
    },
    async *list() {
      for (const folder of await readdir(dir)) {
        if (!/^[0-9a-f]{2}$/.test(folder)) continue;
        for (const name of await readdir(join(dir, folder))) {
          if (STORAGE_KEY_PATTERN.test(name)) yield name;
        }
      }
    },
  };
}
