import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Unit tests live beside the code they test (`*.test.ts[x]`); e2e/ has its own runner.
export default defineConfig({
  test: {
    // Vitest's default (one fewer than the cores) leaves one of a 2-core machine's two idle: two workers
    // take the suite from 346 s to 289 s there (the files are mostly PGlite and module loading).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: './site/vite.config.ts',
        test: {
          name: 'site',
          root: './site',
          include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
          environment: 'happy-dom',
        },
      },
      {
        test: {
          name: 'server',
          root: './server',
          include: ['src/**/*.test.ts'],
          environment: 'node',
          // Worker threads, not processes: the files load faster (server suite 126 s → 106 s here).
          pool: 'threads',
          // Opening a PGlite folder (in a worker thread) takes seconds on a busy 2-core machine.
          hookTimeout: 60_000,
          // One migrated PGlite folder that test platforms copy (src/test-support/pglite-template.global.ts).
          globalSetup: ['./src/test-support/pglite-template.global.ts'],
        },
      },
    ],
  },
});
