import { defineConfig } from '@playwright/test';
import { CHROMIUM, CHROMIUM_FLAGS } from './support/chromium';

// Browser tests drive Debian's Chromium (never a downloaded browser) against the real built server.
// Each spec file starts its own server process on a free port and a temporary DATA_DIR.
// With DATABASE_URL set, the specs about PostgreSQL run a second time there (`api-postgres`,
// `security-postgres`): every server then gets a fresh PostgreSQL database instead of PGlite
// (support/server-process.ts reads `metadata.database`). The SQL both stores share is checked on both by
// the unit suite (the filter contract in store/entity-filter-sql.test.ts, rules-agree, query plans,
// prepared statements), so only what differs on PostgreSQL reruns here: several instances on one
// database (with Redis), crash safety, files and secrets in the database, and the SQL-heavy entity paths
// (aggregates, imports, bulk operations, users as records, page-log rollups).
const POSTGRES_API_SPECS = [
  '**/postgres-instances.spec.ts',
  '**/read-cache-instances.spec.ts',
  '**/realtime-instances.spec.ts',
  '**/agents-instances.spec.ts',
  '**/connectors-instances.spec.ts',
  '**/identity-cache.spec.ts',
  '**/secrets-instances.spec.ts',
  '**/secrets-cli.spec.ts',
  '**/redis-fanout.spec.ts',
  '**/redis-recovery.spec.ts',
  '**/crash-safety.spec.ts',
  '**/files.spec.ts',
  '**/entities-aggregate.spec.ts',
  '**/entities-import.spec.ts',
  '**/entities-ops.spec.ts',
  '**/entities-user.spec.ts',
  '**/app-logs.spec.ts',
];

// Security specs whose attacks reach the store: accounts and tokens, entity rules, private apps, query
// cost and deadlines, uploads and two apps on one database. The others (parsers, schemas, function
// processes, the HTTP edge, rate limits) never reach it differently on PostgreSQL.
const POSTGRES_SECURITY_SPECS = [
  '**/accounts.spec.ts',
  '**/entities.spec.ts',
  '**/private-apps.spec.ts',
  '**/regex-cost.spec.ts',
  '**/regex-deadline.spec.ts',
  '**/database-deadline.spec.ts',
  '**/hosting-and-uploads.spec.ts',
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
  // One retry: on a machine twice as slow as the usual one, the header's nav moved ~75 px at 1440 px in 2 of
  // ~20 runs of market.spec (not yet explained; a port race seen there is fixed in startServer). A test that
  // fails twice still fails the run, and the list reporter names every test that needed its retry.
  retries: 1,
  reporter: [['list'], ['./support/project-times-reporter.ts']],
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_FLAGS },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  // The projects with the longest spec files come first: a worker takes the next file as it frees up, so
  // the many short API and security files at the end fill both workers until the run ends, instead of
  // one worker finishing a long real-app or browser file alone.
  projects: [
    // The three real Base44 apps of ../shared/fixtures/real-apps, installed and built (both cached per
    // machine, outside the clone), served and driven in Chromium (README.md, "real-apps"). A cold machine
    // installs and builds them first. Also fixtures/agent-chat-app, built with the workspace's own Vite.
    { name: 'real-apps', testDir: './tests/real-apps', timeout: 90_000, metadata: { database: 'pglite' } },
    { name: 'site', testDir: './tests/site' },
    { name: 'api', testDir: './tests/api', metadata: { database: 'pglite' } },
    ...(process.env.DATABASE_URL
      ? [
          {
            name: 'api-postgres',
            testDir: './tests/api',
            testMatch: POSTGRES_API_SPECS,
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
            testMatch: POSTGRES_SECURITY_SPECS,
            metadata: { database: 'postgres' },
          },
        ]
      : []),
  ],
});
