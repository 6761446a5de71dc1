// `npm run cli -- files prune [--dry-run] [--min-age-hours h]`: the operator's clean-up of uploads that no
// record references, straight on the database and the FILE_STORAGE driver (no API does it).
import type { PruneReport } from '../../services/files/file-prune';
import type { CliContext } from '../cli-context';
import { withOfflineServices } from '../offline-services';

/** pruneFilesCommand removes (with dryRun, only lists) unreferenced uploads older than minAgeHours. */
export async function pruneFilesCommand(
  context: CliContext,
  options: { dryRun: boolean; minAgeHours: number },
): Promise<PruneReport> {
  if (context.server && !context.config.DATABASE_URL) {
    throw new Error(
      `A server is running on this DATA_DIR (${context.server.url}) and PGlite admits one process: stop it, then prune`,
    );
  }
  return withOfflineServices(context, (offline) =>
    offline.pruneFiles({ dryRun: options.dryRun, minAgeSeconds: options.minAgeHours * 3600 }),
  );
}
