import { join } from 'node:path';
import { fileStorageKind } from '../../config/files-env';
import type { ServerConfig } from '../../config/server-env';
import type { Database } from '../../store/database';
import { createFileChunksStore } from '../../store/files-store';
import { createDiskFileStorage } from './disk-file-storage';
import type { FileStorage } from './file-storage';
import { createPostgresFileStorage } from './postgres-file-storage';

/** openFileStorage builds the FILE_STORAGE driver (the config was validated by parseServerEnv). */
export async function openFileStorage(config: ServerConfig, db: Database): Promise<FileStorage> {
  const choice = fileStorageKind(config);
  if ('problem' in choice) throw new Error(choice.problem);
  if (choice.kind === 'postgres') return createPostgresFileStorage(createFileChunksStore(db));
  if (choice.kind === 's3') {
    // The AWS SDK is loaded only for S3 storage: it is a tenth of a second of every other start.
    const { createS3FileStorage } = await import('./s3-file-storage');
    return createS3FileStorage({
      endpoint: config.S3_ENDPOINT,
      bucket: config.S3_BUCKET ?? '',
      region: config.S3_REGION,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
    });
  }
  return createDiskFileStorage(join(config.DATA_DIR, 'files'));
}
