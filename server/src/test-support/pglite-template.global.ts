// Vitest global setup of the server project: one migrated PGlite folder for the whole run, which
// buildTestPlatform and the store tests copy (migrated-pglite.ts) instead of running initdb and every migration per test file (seconds each on
// this 2-core machine, tens of milliseconds to copy). Tests of the migrations themselves open their own.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { runMigrations } from '../store/migrations';
import { openPgliteDatabase } from '../store/pglite-database';

declare module 'vitest' {
  export interface ProvidedContext {
    /** pgliteTemplate is a closed, migrated PGlite folder to copy (never to open in place). */
    pgliteTemplate: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const folder = await mkdtemp(join(tmpdir(), 'queen-unit-template-'));
  const db = await openPgliteDatabase(join(folder, 'pglite'));
  await runMigrations(db);
  await db.close();
  project.provide('pgliteTemplate', join(folder, 'pglite'));
  return () => rm(folder, { recursive: true, force: true });
}
