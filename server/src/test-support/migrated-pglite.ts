import { cp, mkdtemp } from 'node:fs/promises';
import { dirname, join } from 'node:path';
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

/** copyMigratedPglite fills folder (new or empty) with a migrated, empty PGlite database. */
export async function copyMigratedPglite(folder: string): Promise<void> {
  await cp(inject('pgliteTemplate'), folder, { recursive: true });
}
