import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';

// Copies of the run's migrated PGlite folder (pglite-template.global.ts): a test database that skips initdb
// and the migrations, seconds per test file here. openTestDatabase opens them; the copies sit beside the
// template and go with it.

/** migratedPgliteFolder returns a new folder holding a migrated, empty PGlite database. */
export async function migratedPgliteFolder(): Promise<string> {
  const template = inject('pgliteTemplate');
  const folder = await mkdtemp(join(dirname(template), 'copy-'));
  await copyMigratedPglite(folder);
  return folder;
}

/**
 * copyMigratedPglite fills folder (new or empty) with a migrated, empty PGlite database. The system's
 * `cp -R` copies its 1,100 files in ~40 ms, where Node's fs.cp took 300–900 ms.
 */
export async function copyMigratedPglite(folder: string): Promise<void> {
  await promisify(execFile)('cp', ['-R', `${inject('pgliteTemplate')}/.`, folder]);
}
