// A local S3-compatible server (s3rver, from npm) for the S3 driver's tests: it stores objects in a temporary
// folder and accepts the fixed credentials S3RVER/S3RVER. It does not check signatures, so it tests the
// data path only.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

/** RunningS3rver is a started s3rver with one bucket, and how to stop it. */
export interface RunningS3rver {
  endpoint: string;
  bucket: string;
  close(): Promise<void>;
}

/** startS3rver starts s3rver on a free port of 127.0.0.1 with bucket created. */
export async function startS3rver(bucket = 'queen-files'): Promise<RunningS3rver> {
  const directory = await mkdtemp(join(tmpdir(), 'queen-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
