import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import type { Database } from '../../store/database';
import { createFileChunksStore } from '../../store/files-store';
import { runMigrations } from '../../store/migrations';
import { openPostgresDatabase } from '../../store/pg-database';
import { describeFileStorageContract } from './file-storage-contract';
import type { FileStorage } from './file-storage';
import { createPostgresFileStorage } from './postgres-file-storage';

const POSTGRES_ADMIN_URL = process.env.FILES_TEST_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/test';
const name = `files_store_${process.pid}_${randomBytes(3).toString('hex')}`;
let admin: pg.Client | undefined;
let db: Database | undefined;
let storage: FileStorage | undefined;

beforeAll(async () => {
  try {
    admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 3000 });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
  } catch (error) {
    console.warn(`skipped: PostgreSQL at ${POSTGRES_ADMIN_URL} is unreachable (${(error as Error).message})`);
    await admin?.end().catch(() => undefined);
    admin = undefined;
    return;
  }
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  db = await openPostgresDatabase(url.toString(), { maxConnections: 2 });
  await runMigrations(db);
  storage = createPostgresFileStorage(createFileChunksStore(db));
}, 60_000);
afterAll(async () => {
  await db?.close();
  await admin?.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin?.end();
});

describeFileStorageContract('postgres', () => storage);
