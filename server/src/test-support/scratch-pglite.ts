import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPgliteDatabase } from '../store/pglite-database';
import type { ScratchPostgres } from './scratch-postgres';

/** openScratchPglite opens an embedded database in a fresh temporary folder; close removes the folder. */
export async function openScratchPglite(prefix: string): Promise<ScratchPostgres> {
  const folder = await mkdtemp(join(tmpdir(), `${prefix}-pglite-`));
  const db = await openPgliteDatabase(folder);
  return {
    db,
    async close() {
      await db.close();
      await rm(folder, { recursive: true, force: true });
    },
  };
}
