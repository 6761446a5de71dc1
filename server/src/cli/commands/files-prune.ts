// `npm run cli -- files prune [--dry-run] [--min-age-hours h]`: the operator's clean-up of uploads that no
// record references, straight on the database and the FILE_STORAGE driver.
import type { ServerConfig } from '../../config/server-env';
import { pruneFiles, type PruneReport } from '../../services/files/file-prune';
import { openFileStorage } from '../../services/files/open-file-storage';
import { createFilesStore } from '../../store/files-store';
import { openPlatformDatabase } from '../../platform/platform';

/** pruneFilesCommand runs `files <action>`; liveServer is the URL of a server running on DATA_DIR, if any. */
export async function pruneFilesCommand(
  config: ServerConfig,
  action: string | undefined,
  options: { 'dry-run'?: boolean | undefined; 'min-age-hours'?: string | undefined },
  liveServer: string | null,
): Promise<PruneReport> {
  if (action !== 'prune')
    throw new Error('Usage: npm run cli -- files prune [--dry-run] [--min-age-hours <h>]');
  const hours = Number(options['min-age-hours'] ?? 24);
  if (!Number.isFinite(hours) || hours < 0)
    throw new Error('--min-age-hours must be a number of hours, 0 or more');
  if (liveServer && !config.DATABASE_URL) {
    throw new Error(
      `A server is running on this DATA_DIR (${liveServer}) and PGlite admits one process: stop it, then prune`,
    );
  }
  const { db } = await openPlatformDatabase(config);
  try {
    return await pruneFiles({
      files: createFilesStore(db),
      storage: await openFileStorage(config, db),
      dryRun: options['dry-run'] === true,
      minAgeSeconds: hours * 3600,
    });
  } finally {
    await db.close();
  }
}
