import { afterAll, beforeAll } from 'vitest';
import { createFileChunksStore } from '../../store/files-store';
import { runMigrations } from '../../store/migrations';
import { openScratchPostgres, type ScratchPostgres } from '../../test-support/scratch-postgres';
import { describeFileStorageContract } from './file-storage-contract';
import type { FileStorage } from './file-storage';
import { createPostgresFileStorage } from './postgres-file-storage';

const POSTGRES_ADMIN_URL = process.env.FILES_TEST_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/test';
let scratch: ScratchPostgres | undefined;
let storage: FileStorage | undefined;

beforeAll(async () => {
  try {
    scratch = await openScratchPostgres(POSTGRES_ADMIN_URL, 'files_store');
  } catch (error) {
    console.warn(`skipped: PostgreSQL at ${POSTGRES_ADMIN_URL} is unreachable (${(error as Error).message})`);
    return;
  }
  await runMigrations(scratch.db);
  storage = createPostgresFileStorage(createFileChunksStore(scratch.db));
}, 60_000);
afterAll(() => scratch?.close());

describeFileStorageContract('postgres', () => storage);
