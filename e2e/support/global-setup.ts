// Runs once before every project: makes the migrated PGlite folder that PGlite servers start from (and,
// with DATABASE_URL, the migrated PostgreSQL database each PostgreSQL test server's database is copied from)
// (support/server-process.ts copies it into each fresh DATA_DIR). A fresh PGlite runs initdb, several seconds
// per server here; the copy takes milliseconds, and the server then opens an existing database as it does on
// every restart. Servers given their own dataDir still start from an empty one.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { adminUrl, createTemplateDatabase, dropDatabase, POSTGRES_TEMPLATE_ENV } from './postgres';
import { PGLITE_TEMPLATE_ENV, REPO_ROOT } from './server-process';

export default async function globalSetup(): Promise<(() => Promise<void>) | undefined> {
  const cli = join(REPO_ROOT, 'server/dist/cli.js');
  // Without a build every spec fails at its first start and says so; nothing to prepare.
  if (!existsSync(cli)) return undefined;
  const folder = await mkdtemp(join(tmpdir(), 'queen-e2e-template-'));
  const { DATABASE_URL: _database, REDIS_URL: _redis, ...inherited } = process.env;
  await promisify(execFile)(process.execPath, [cli, 'migrate'], {
    cwd: REPO_ROOT,
    env: { ...inherited, DATA_DIR: folder, LOG_LEVEL: 'warn' },
    timeout: 120_000,
  });
  // Workers start after this and inherit the environment.
  process.env[PGLITE_TEMPLATE_ENV] = join(folder, 'pglite');
  // With DATABASE_URL, a migrated PostgreSQL database too, copied for each PostgreSQL test server.
  const template = adminUrl() ? await createTemplateDatabase() : null;
  if (template) {
    await promisify(execFile)(process.execPath, [cli, 'migrate'], {
      cwd: REPO_ROOT,
      env: { ...inherited, DATA_DIR: folder, DATABASE_URL: template.url, LOG_LEVEL: 'warn' },
      timeout: 120_000,
    });
    process.env[POSTGRES_TEMPLATE_ENV] = template.name;
  }
  return async () => {
    await rm(folder, { recursive: true, force: true });
    if (template) await dropDatabase(template.name);
  };
}
