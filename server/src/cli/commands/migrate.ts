// `npm run cli -- migrate`: creates or upgrades the database and exits, a deploy step (the first start then
// skips it), and how the e2e harness makes the migrated PGlite folder its servers start from.
import type { CliTarget } from '../cli-context';
import { migrateDatabase } from '../offline-services';

/** MigrateReport says where the migrations ran and which ones did. */
export type MigrateReport = { ok: true; applied: string[] } & ({ via: string } | { database: string });

/**
 * migrateCommand migrates target's database, or leaves it to the live server, which migrated it when it
 * started (and PGlite admits one process). The server secrets are neither read nor generated: it needs none.
 */
export async function migrateCommand(target: CliTarget): Promise<MigrateReport> {
  if (target.live) return { ok: true, applied: [], via: `server at ${target.live.url}` };
  const { database, applied } = await migrateDatabase(target.config);
  return { ok: true, database, applied };
}
