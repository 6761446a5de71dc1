// s3rver (npm) as the S3-compatible store of the files spec: started in the test process on a free port,
// with one bucket, objects in a temporary folder. It accepts any signature, so it tests the data path.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

/** RunningS3 is a started s3rver, the server env that points at it, and how to stop it. */
export interface RunningS3 {
  env: Record<string, string>;
  close(): Promise<void>;
}

/** startS3 starts s3rver with the bucket `queen-files` and returns FILE_STORAGE=s3 settings for it. */
export async function startS3(): Promise<RunningS3> {
  const directory = await mkdtemp(join(tmpdir(), 'queen-e2e-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: 'queen-files' }],
  });
  const { port } = await server.run();
  return {
    env: {
      FILE_STORAGE: 's3',
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_BUCKET: 'queen-files',
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    },
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
