import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createDiskFileStorage } from './disk-file-storage';
import { describeFileStorageContract } from './file-storage-contract';
import type { FileStorage } from './file-storage';

let folder = '';
let storage: FileStorage | undefined;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'queen-files-disk-'));
  storage = await createDiskFileStorage(join(folder, 'files'));
});
afterAll(() => rm(folder, { recursive: true, force: true }));

describeFileStorageContract('disk', () => storage);
