// Anonymous uploads that no record names are removed once FILE_ANONYMOUS_RETENTION_HOURS have passed
// (issue 18, item 7): a visitor's upload that never became part of the app's data is not kept forever.
// The work is off the request path, bounded per run, and one run at a time.
import type { FilesStore } from '../../store/files-store';
import type { FileStorage } from './file-storage';

/** PRUNE_BATCH bounds the files one run looks at (each costs a search of the app's records). */
const PRUNE_BATCH = 200;
const PRUNE_FIRST_MS = 60_000;
const PRUNE_EVERY_MS = 3_600_000;

/** pruneAnonymousUploads removes up to PRUNE_BATCH expired, unreferenced anonymous uploads; says how many. */
export async function pruneAnonymousUploads(input: {
  files: Pick<FilesStore, 'anonymousOlderThan' | 'isReferenced' | 'delete'>;
  storage: Pick<FileStorage, 'delete'>;
  retentionSeconds: number;
}): Promise<number> {
  let removed = 0;
  for (const file of await input.files.anonymousOlderThan(input.retentionSeconds, PRUNE_BATCH)) {
    if (await input.files.isReferenced(file.app_id, file.key)) continue;
    // The row goes first: a file without its row is never served, then its bytes.
    await input.files.delete(file.key);
    await input.storage.delete(file.key);
    removed += 1;
  }
  return removed;
}

/** startAnonymousPrune prunes a minute after start and then hourly until the returned stop is called. */
export function startAnonymousPrune(
  input: Parameters<typeof pruneAnonymousUploads>[0] & {
    log: { info(fields: object, message: string): void; error(fields: object, message: string): void };
  },
): () => Promise<void> {
  let running: Promise<void> | null = null;
  const run = () => {
    running ??= pruneAnonymousUploads(input)
      .then((removed) => {
        if (removed > 0) input.log.info({ removed }, 'pruned unreferenced anonymous uploads');
      })
      .catch((error: unknown) => input.log.error({ err: error }, 'anonymous upload prune failed'))
      .finally(() => {
        running = null;
      });
  };
  const timers = [setTimeout(run, PRUNE_FIRST_MS), setInterval(run, PRUNE_EVERY_MS)];
  for (const timer of timers) timer.unref();
  return async () => {
    for (const timer of timers) clearTimeout(timer);
    await running;
  };
}
