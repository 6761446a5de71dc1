import { defineConfig } from '@playwright/test';
import { CHROMIUM, CHROMIUM_FLAGS } from './support/chromium';

// Browser tests drive Debian's Chromium (never a downloaded browser) against the real built server.
// Each spec file starts its own server process on a free port and a temporary DATA_DIR.
// With DATABASE_URL set, the api suite (but PGLITE_ONLY_API_SPECS) runs a second time as `api-postgres`:
// every server then gets a fresh PostgreSQL database instead of PGlite (support/server-process.ts reads
// `metadata.database`).

// api specs whose subject does not touch the store differently on PostgreSQL run on PGlite only: backend
// functions (their automations spec starts its own PostgreSQL instances where it needs them), integrations
// that call out (LLM, images, mail, custom), extraction, site serving, hosting and entity inference. Every
// other api spec runs on both stores.
const PGLITE_ONLY_API_SPECS = [
  '**/functions*.spec.ts',
  '**/invoke-llm.spec.ts',
  '**/generate-image.spec.ts',
  '**/image-provider.spec.ts',
  '**/send-email.spec.ts',
  '**/custom-integrations.spec.ts',
  '**/extract-data.spec.ts',
  '**/site-serving.spec.ts',
  '**/hosted-app.spec.ts',
  '**/entities-infer.spec.ts',
];

// Security specs whose attacks never reach the store differently on PostgreSQL (parsers, schemas, function
// processes, the HTTP edge) run on PGlite only.
const PGLITE_ONLY_SECURITY_SPECS = [
  '**/hardening-extraction.spec.ts',
  '**/hardening-schemas.spec.ts',
  '**/hardening-functions.spec.ts',
  '**/hardening-edge.spec.ts',
];

export default defineConfig({
  testDir: './tests',
  // The migrated PGlite folder every fresh PGlite server starts from (support/global-setup.ts).
  globalSetup: './support/global-setup.ts',
  outputDir: './test-results',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  // Two workers on this 2-core machine; E2E_WORKERS overrides (the specs mostly wait on servers and browsers).
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_FLAGS },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'api', testDir: './tests/api', metadata: { database: 'pglite' } },
    ...(process.env.DATABASE_URL
      ? [
          {
            name: 'api-postgres',
            testDir: './tests/api',
            testIgnore: PGLITE_ONLY_API_SPECS,
            metadata: { database: 'postgres' },
          },
        ]
      : []),
    // The security contract (e2e/tests/security/README.md): scenario tables, on both stores.
    { name: 'security', testDir: './tests/security', metadata: { database: 'pglite' } },
    ...(process.env.DATABASE_URL
      ? [
          {
            name: 'security-postgres',
            testDir: './tests/security',
            testIgnore: PGLITE_ONLY_SECURITY_SPECS,
            metadata: { database: 'postgres' },
          },
        ]
      : []),
    { name: 'site', testDir: './tests/site' },
    // The three real Base44 apps of ../shared/fixtures/real-apps, installed (cached in .cache/), built,
    // served and driven in Chromium (README.md, "real-apps"). A cold run installs them first.
    { name: 'real-apps', testDir: './tests/real-apps', timeout: 90_000, metadata: { database: 'pglite' } },
    // The same on PostgreSQL, after the PGlite run (it shares the installed and built apps of .cache/).
    ...(process.env.DATABASE_URL
      ? [
          {
            name: 'real-apps-postgres',
            testDir: './tests/real-apps',
            timeout: 90_000,
            metadata: { database: 'postgres' },
            dependencies: ['real-apps'],
          },
        ]
      : []),
  ],
});
