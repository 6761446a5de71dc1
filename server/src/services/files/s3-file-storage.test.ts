import { afterAll, beforeAll } from 'vitest';
import { startS3rver, type RunningS3rver } from '../../test-support/start-s3rver';
import { describeFileStorageContract } from './file-storage-contract';
import type { FileStorage } from './file-storage';
import { createS3FileStorage } from './s3-file-storage';

let s3: RunningS3rver | undefined;
let storage: FileStorage | undefined;
beforeAll(async () => {
  s3 = await startS3rver();
  storage = createS3FileStorage({
    endpoint: s3.endpoint,
    bucket: s3.bucket,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
  });
}, 30_000);
afterAll(() => s3?.close());

describeFileStorageContract('s3 (s3rver)', () => storage);
