import type { FilesStore } from '../../store/files-store';
import type { FileStorage } from './file-storage';

/** PruneReport is what `files prune` found and (without dryRun) removed. */
export interface PruneReport {
  dryRun: boolean;
  /** unreferenced are the files no entity record or user profile of their app mentions. */
  unreferenced: Array<{ key: string; app_id: string; filename: string; size: number }>;
  bytes: number;
  /** orphanKeys are stored bytes without a file row (an upload cut short, or still in progress): left alone. */
  orphanKeys: string[];
}

/**
 * pruneFiles removes files no record references (as the hosted platform, deleting a record never deletes
 * its files; this is the operator's clean-up). Files younger than minAgeSeconds are kept: a form may have
 * uploaded one and not yet saved the record that names it.
 */
export async function pruneFiles(input: {
  files: FilesStore;
  storage: FileStorage;
  dryRun: boolean;
  minAgeSeconds: number;
}): Promise<PruneReport> {
  const { files, storage } = input;
  const unreferenced: PruneReport['unreferenced'] = [];
  for (const file of await files.olderThan(input.minAgeSeconds)) {
    if (await files.isReferenced(file.app_id, file.key)) continue;
    unreferenced.push(file);
    if (input.dryRun) continue;
    // The row goes first: a file without its row is never served, then its bytes.
    await files.delete(file.key);
    await storage.delete(file.key);
  }
  const orphanKeys: string[] = [];
  for await (const key of storage.list()) {
    if (!(await files.knows(key))) orphanKeys.push(key);
  }
  const bytes = unreferenced.reduce((sum, file) => sum + file.size, 0);
  return { dryRun: input.dryRun, unreferenced, bytes, orphanKeys };
}

/** AppPruneReport is what the console's prune of one app found among the files it looked at. */
export interface AppPruneReport {
  dryRun: boolean;
  /** unreferenced lists what was found (or removed), oldest first. */
  unreferenced: PruneReport['unreferenced'];
  bytes: number;
  /** more says older files were left unexamined past maxFiles: run it again. */
  more: boolean;
}

/**
 * pruneAppFiles is `files prune` for one app, from the console: at most maxFiles of its oldest files are
 * examined per run (each is a search through the app's records), and stored bytes without a row are left
 * to the CLI (listing the whole storage is not a request's work).
 */
export async function pruneAppFiles(input: {
  files: Pick<FilesStore, 'olderThanIn' | 'isReferenced' | 'delete'>;
  storage: Pick<FileStorage, 'delete'>;
  appId: string;
  dryRun: boolean;
  minAgeSeconds: number;
  maxFiles: number;
}): Promise<AppPruneReport> {
  const { files, storage, appId } = input;
  const candidates = await files.olderThanIn(appId, input.minAgeSeconds, input.maxFiles + 1);
  const unreferenced: PruneReport['unreferenced'] = [];
  for (const file of candidates.slice(0, input.maxFiles)) {
    if (await files.isReferenced(appId, file.key)) continue;
    unreferenced.push(file);
    if (input.dryRun) continue;
    await files.delete(file.key);
    await storage.delete(file.key);
  }
  const bytes = unreferenced.reduce((sum, file) => sum + file.size, 0);
  return { dryRun: input.dryRun, unreferenced, bytes, more: candidates.length > input.maxFiles };
}
