import type { Database } from './database';

interface Migration {
  version: number;
  name: string;
  /** statements run in order, one per query, so any PostgreSQL driver can run them. */
  statements: string[];
}

// Append only: a released migration is never edited, a change is a new version.
const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'create apps',
    statements: [
      `CREATE TABLE apps (
        id text PRIMARY KEY,
        public_settings text NOT NULL DEFAULT 'public_without_login',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`,
    ],
  },
  {
    version: 2,
    name: 'create analytics_events',
    statements: [
      `CREATE TABLE analytics_events (
        id bigserial PRIMARY KEY,
        app_id text NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
        event_name text NOT NULL,
        properties jsonb,
        event_time timestamptz NULL,
        page_url text NULL,
        user_id text NULL,
        session_id text NULL,
        received_at timestamptz NOT NULL DEFAULT now()
      )`,
      'CREATE INDEX analytics_events_app_received_idx ON analytics_events (app_id, received_at)',
    ],
  },
  {
    version: 3,
    name: 'create generated_images',
    statements: [
      `CREATE TABLE generated_images (
        key text PRIMARY KEY,
        prompt text NOT NULL,
        provider text NOT NULL,
        content_type text NOT NULL,
        bytes bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
    ],
  },
];

/** runMigrations applies every migration not yet recorded, each once, in order, in its own transaction. */
export async function runMigrations(db: Database): Promise<string[]> {
  await db.query(
    `CREATE TABLE IF NOT EXISTS schema_migrations (
      version int PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`,
  );
  const { rows } = await db.query<{ version: number }>('SELECT version FROM schema_migrations');
  const applied = new Set(rows.map((row) => Number(row.version)));
  const ran: string[] = [];
  for (const migration of [...MIGRATIONS].sort((a, b) => a.version - b.version)) {
    if (applied.has(migration.version)) continue;
    await db.transaction(async (tx) => {
      for (const statement of migration.statements) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
    });
    ran.push(`${migration.version} ${migration.name}`);
  }
  return ran;
}
