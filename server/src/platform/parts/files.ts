// Uploaded files: the storage driver, the file service with its upload quotas, and the schedule that
// prunes anonymous uploads no record names.
import { startAnonymousPrune } from '../../services/files/anonymous-prune';
import { createFileService, type FileService } from '../../services/files/file-service';
import type { FileStorage } from '../../services/files/file-storage';
import { openFileStorage } from '../../services/files/open-file-storage';
import { createUploadQuota } from '../../services/files/upload-quota';
import { createFilesStore } from '../../store/files-store';
import { createFileReader, type FileReader } from '../../services/files/file-reader';
import { createPublicFetch, type PublicFetch } from '../../lib/public-fetch';
import { registerFilesRoutes } from '../../routes/files';
import type { Part, Shared } from './part';

const MB = 1024 * 1024;

/**
 * FilesPart is the file service and its storage, with the guarded fetch for caller-chosen URLs and the
 * file reader on both (integrations read `file_url`s through it: our own files directly, others fetched).
 */
export interface FilesPart extends Part {
  files: FileService;
  storage: FileStorage;
  fetchPublic: PublicFetch;
  readFileUrl: FileReader;
}

/** buildFilesPart opens the storage FILE_STORAGE names and builds the file service on it. */
export async function buildFilesPart(shared: Shared): Promise<FilesPart> {
  const { config, db } = shared;
  const storage = await openFileStorage(config, db);
  shared.logger.info({ fileStorage: storage.kind }, 'file storage');
  const store = createFilesStore(db);
  const files = createFileService({
    storage,
    files: store,
    apps: shared.apps,
    maxBytes: config.FILE_MAX_MB * MB,
    anonymousUploads: config.FILE_ANONYMOUS_UPLOADS === 'on',
    quota: createUploadQuota({
      usage: shared.usage,
      totalBytes: (appId) => store.totalBytes(appId),
      limits: {
        maxBytes: config.FILE_MAX_MB * MB,
        anonymousMaxBytes: config.FILE_ANONYMOUS_MAX_MB * MB,
        userDailyBytes: config.FILE_USER_DAILY_MB * MB,
        anonymousDailyBytes: config.FILE_ANONYMOUS_DAILY_MB * MB,
        appMaxBytes: config.FILE_APP_MAX_MB * MB,
      },
    }),
    signingSecret: shared.secrets.jwtSecret,
    signedUrlMaxSeconds: config.FILE_SIGNED_URL_MAX_S,
  });
  const stop = startAnonymousPrune({
    files: store,
    storage,
    retentionSeconds: config.FILE_ANONYMOUS_RETENTION_HOURS * 3600,
    log: shared.logger,
  });
  const fetchPublic = createPublicFetch({ allowedPrivateHosts: config.OUTBOUND_PRIVATE_HOSTS });
  return {
    name: 'files',
    files,
    storage,
    fetchPublic,
    readFileUrl: createFileReader({ files, fetchPublic }),
    routes: (app, { guard, budget, publicUrl }) =>
      registerFilesRoutes(app, { guard, budget, files, publicUrl }),
    close: stop,
  };
}
