// Builds the whole platform in-process for route-level tests (`app.inject`), next to the process-level
// e2e suite: the same composition root as main.ts, on an in-process PGlite in a temporary folder, with a
// small app project (one open entity, Todo) and no built site.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { parseServerEnv } from '../config/server-env';
import { buildPlatform, type Platform } from '../platform/platform';
import { loadProject } from '../project/project-loader';
import { openTestDatabase } from './open-test-database';

const REPO_ROOT = resolve(import.meta.dirname, '../../..');

/** TEST_APP_ID is the app the test platform hosts. */
export const TEST_APP_ID = 'route-tests';

/** TEST_SERVICE_TOKEN is the test platform's service-role token. */
export const TEST_SERVICE_TOKEN = 'route-tests-service-token-0123456789abcdef';

// No rules: anyone may read and write Todo (the tests are about the HTTP edge, not the rules).
const TODO_ENTITY = {
  name: 'Todo',
  type: 'object',
  properties: { title: { type: 'string' }, done: { type: 'boolean' } },
  required: ['title'],
};

/** TestPlatform is a built platform and how to throw it away. */
export interface TestPlatform extends Platform {
  /** dispose closes the platform (with close's options) and removes its folder. */
  dispose(options?: { graceMs?: number }): Promise<void>;
}

/**
 * buildTestPlatform builds a platform on a fresh database; env overrides the server settings, and
 * project.entities adds entity files (by file name, e.g. `User.jsonc`) beside Todo.
 */
export async function buildTestPlatform(
  env: NodeJS.ProcessEnv = {},
  project: { entities?: Record<string, object> } = {},
): Promise<TestPlatform> {
  const folder = await mkdtemp(join(tmpdir(), 'queen-route-tests-'));
  try {
    const projectDir = join(folder, 'project');
    await mkdir(join(projectDir, 'entities'), { recursive: true });
    await writeFile(join(projectDir, 'config.jsonc'), JSON.stringify({ name: 'Route tests' }));
    await writeFile(join(projectDir, 'entities', 'todo.jsonc'), JSON.stringify(TODO_ENTITY));
    for (const [file, entity] of Object.entries(project.entities ?? {})) {
      await writeFile(join(projectDir, 'entities', file), JSON.stringify(entity));
    }
    const config = parseServerEnv(
      {
        DATA_DIR: join(folder, 'data'),
        SITE_DIST: join(folder, 'no-site'),
        SERVICE_TOKEN: TEST_SERVICE_TOKEN,
        LOG_LEVEL: 'silent',
        ...env,
      },
      REPO_ROOT,
      TEST_APP_ID,
    );
    await mkdir(config.DATA_DIR, { recursive: true });
    // The run's migrated folder (pglite-template.global.ts), so only this platform's own start work is left.
    const { db } = await openTestDatabase({ engine: 'pglite', folder: join(folder, 'pglite') });
    const platform = await buildPlatform({
      config,
      project: await loadProject(projectDir),
      logger: pino({ level: 'silent' }),
      database: { db, label: 'PGlite (test)', folder, applied: [] },
      isShuttingDown: () => false,
    });
    await platform.app.ready();
    return {
      ...platform,
      async dispose(options) {
        await platform.close(options);
        await rm(folder, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
}

/**
 * useTestPlatform builds the platform before a test file's tests and disposes of it after them: read
 * `.app` / `.platform` inside the tests.
 */
export function useTestPlatform(...args: Parameters<typeof buildTestPlatform>) {
  let platform: TestPlatform | undefined;
  beforeAll(async () => {
    platform = await buildTestPlatform(...args);
  });
  afterAll(async () => {
    await platform?.dispose();
  });
  const built = () => {
    if (!platform) throw new Error('the test platform is built in beforeAll');
    return platform;
  };
  return {
    get platform() {
      return built();
    },
    get app() {
      return built().app;
    },
  };
}
