import { afterAll, beforeAll } from 'vitest';
import { createFileChunksStore } from '../../store/files-store';
import { openTestDatabase, TEST_ENGINES, type TestDatabase } from '../../test-support/open-test-database';
import { describeFileStorageContract } from './file-storage-contract';
import type { FileStorage } from './file-storage';
import { createPostgresFileStorage } from './postgres-file-storage';

// The contract skips without a storage: here, without DATABASE_URL (as .ci/run sets it).
let opened: TestDatabase | undefined;
let storage: FileStorage | undefined;

beforeAll(async () => {
  if (!TEST_ENGINES.includes('postgres')) return;
  opened = await openTestDatabase({ engine: 'postgres', name: 'files_store' });
  storage = createPostgresFileStorage(createFileChunksStore(opened.db));
}, 60_000);
afterAll(() => opened?.close());

describeFileStorageContract('postgres', () => storage);
