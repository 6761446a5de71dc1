// Uploaded files: the storage driver, the file service with its upload quotas, and the schedule that
// prunes anonymous uploads no record names.
import type { Logger } from 'pino';
import type { ServerConfig } from '../config/server-env';
import type { AppsService } from '../services/apps/apps-service';
import { startAnonymousPrune } from '../services/files/anonymous-prune';
import { createFileService, type FileService } from '../services/files/file-service';
import type { FileStorage } from '../services/files/file-storage';
import { openFileStorage } from '../services/files/open-file-storage';
import { createUploadQuota } from '../services/files/upload-quota';
import type { UsageCounter } from '../services/limits/usage-counter';
import type { Database } from '../store/database';
import { createFilesStore } from '../store/files-store';

const MB = 1024 * 1024;

/** FilesPart is the file service, its storage, and stop (ends the prune schedule). */
export interface FilesPart {
  files: FileService;
  storage: FileStorage;
  stop(): Promise<void>;
}

/** buildFilesPart opens the storage FILE_STORAGE names and builds the file service on it. */
export async function buildFilesPart(input: {
  config: ServerConfig;
  db: Database;
  apps: AppsService;
  usage: UsageCounter;
  signingSecret: string;
  log: Logger;
}): Promise<FilesPart> {
  const { config, db } = input;
  const storage = await openFileStorage(config, db);
  input.log.info({ fileStorage: storage.kind }, 'file storage');
  const store = createFilesStore(db);
  const files = createFileService({
    storage,
    files: store,
    apps: input.apps,
    maxBytes: config.FILE_MAX_MB * MB,
    anonymousUploads: config.FILE_ANONYMOUS_UPLOADS === 'on',
    quota: createUploadQuota({
      usage: input.usage,
      totalBytes: (appId) => store.totalBytes(appId),
      limits: {
        maxBytes: config.FILE_MAX_MB * MB,
        anonymousMaxBytes: config.FILE_ANONYMOUS_MAX_MB * MB,
        userDailyBytes: config.FILE_USER_DAILY_MB * MB,
        anonymousDailyBytes: config.FILE_ANONYMOUS_DAILY_MB * MB,
        appMaxBytes: config.FILE_APP_MAX_MB * MB,
      },
    }),
    signingSecret: input.signingSecret,
    signedUrlMaxSeconds: config.FILE_SIGNED_URL_MAX_S,
  });
  const stop = startAnonymousPrune({
    files: store,
    storage,
    retentionSeconds: config.FILE_ANONYMOUS_RETENTION_HOURS * 3600,
    log: input.log,
  });
  return { files, storage, stop };
}
