// Over 300 lines on purpose: the schema's history is one append-only list read top to bottom; splitting it
// would hide the order the versions run in.
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
  {
    version: 4,
    name: 'create users, otp_codes and password_tokens',
    statements: [
      'ALTER TABLE apps ADD COLUMN self_signup boolean NOT NULL DEFAULT true',
      `CREATE TABLE users (
        id text PRIMARY KEY,
        app_id text NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
        email text NOT NULL,
        full_name text NOT NULL DEFAULT '',
        role text NOT NULL DEFAULT 'user' CHECK (role IN ('admin', 'user')),
        is_verified boolean NOT NULL DEFAULT false,
        disabled boolean NOT NULL DEFAULT false,
        approved boolean NOT NULL DEFAULT false,
        password_hash text NULL,
        custom jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_date timestamptz NOT NULL DEFAULT now(),
        updated_date timestamptz NOT NULL DEFAULT now()
      )`,
      'CREATE UNIQUE INDEX users_app_email_idx ON users (app_id, lower(email))',
      `CREATE TABLE otp_codes (
        user_id text PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        code_hash text NOT NULL,
        expires_at timestamptz NOT NULL,
        failed_attempts int NOT NULL DEFAULT 0
      )`,
      `CREATE TABLE password_tokens (
        token_hash text PRIMARY KEY,
        user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        purpose text NOT NULL CHECK (purpose IN ('reset', 'invite')),
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
      'CREATE INDEX password_tokens_user_idx ON password_tokens (user_id)',
    ],
  },
  {
    version: 5,
    name: 'create entity_records and entity_seeds',
    statements: [
      `CREATE TABLE entity_records (
        app_id text NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
        entity text NOT NULL,
        id text NOT NULL,
        data jsonb NOT NULL,
        created_date timestamptz NOT NULL DEFAULT now(),
        updated_date timestamptz NOT NULL DEFAULT now(),
        created_by text NULL,
        created_by_id text NULL,
        PRIMARY KEY (app_id, entity, id)
      )`,
      // NB: fastupdate off, because PGlite has no autovacuum to flush a GIN pending list.
      'CREATE INDEX entity_records_data_idx ON entity_records USING gin (data) WITH (fastupdate = off)',
      'CREATE INDEX entity_records_created_idx ON entity_records (app_id, entity, created_date DESC, id)',
      'CREATE INDEX entity_records_owner_idx ON entity_records (app_id, entity, created_by_id)',
      `CREATE TABLE entity_seeds (
        app_id text NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
        entity text NOT NULL,
        seeded_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (app_id, entity)
      )`,
    ],
  },
  {
    version: 6,
    name: 'entity data index with jsonb_path_ops',
    // Filters reach the index only through `@>` (equality, $in, $all), which jsonb_path_ops serves with
    // about half the index entries: a 100k-row import spends 1.5 s on the index instead of 3.1 s (PGlite).
    statements: [
      'DROP INDEX entity_records_data_idx',
      'CREATE INDEX entity_records_data_idx ON entity_records USING gin (data jsonb_path_ops) WITH (fastupdate = off)',
    ],
  },
  {
    version: 7,
    name: 'users token_version and the password bound to a sign-up code',
    // token_version voids older access tokens (claim `tv`) on password, role and disabled changes; a sign-up
    // code carries the hash of the password chosen with it, the only one its verification may activate.
    statements: [
      'ALTER TABLE users ADD COLUMN token_version integer NOT NULL DEFAULT 0',
      'ALTER TABLE otp_codes ADD COLUMN password_hash text NULL',
    ],
  },
  {
    version: 8,
    name: 'entity lookups that do not depend on planner statistics',
    // Without statistics (PGlite never auto-analyzes) the planner guesses `app_id = … AND entity = …` matches
    // one row, so every index starting with (app_id, entity) looks as cheap as the primary key: a by-id
    // lookup took the owner or the created index and filtered every record of the entity, and a list sorted
    // them all. The owner index served no statement (owner rules compare to_jsonb(created_by_id)), so it
    // goes; the list index is partial on a condition every stored row meets and only list statements state
    // (LISTED in entity-records-store.ts), so by-id lookups can only take the primary key.
    statements: [
      'DROP INDEX entity_records_owner_idx',
      'DROP INDEX entity_records_created_idx',
      `CREATE INDEX entity_records_created_idx ON entity_records (app_id, entity, created_date DESC, id)
        WHERE created_date > '-infinity'`,
      // From here on the statistics keeper refreshes them as the table grows (statistics-keeper.ts).
      'ANALYZE entity_records',
      'ANALYZE users',
    ],
  },
  {
    version: 9,
    name: 'create app_page_views',
    // Page logs (`appLogs`): visitor_key is a daily-rotating keyed hash of IP + user agent, never the IP.
    statements: [
      `CREATE TABLE app_page_views (
        id bigserial PRIMARY KEY,
        app_id text NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
        page text NOT NULL,
        user_id text NULL,
        referrer text NULL,
        visitor_key text NOT NULL,
        viewed_at timestamptz NOT NULL
      )`,
      // The one index (each costs every insert a fifth more): reads and the retention prune go per app.
      'CREATE INDEX app_page_views_app_time_idx ON app_page_views (app_id, viewed_at DESC, id DESC)',
    ],
  },
  {
    version: 10,
    name: 'create files and file_chunks',
    // files: what was uploaded, by whom it may be read (private) and how it is served; the bytes live in
    // the FILE_STORAGE driver. file_chunks holds them for the postgres driver (1 MiB per row, stored
    // uncompressed: uploads are mostly compressed already). No foreign key: chunks are written before the
    // upload's row exists.
    statements: [
      `CREATE TABLE files (
        key text PRIMARY KEY,
        app_id text NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
        private boolean NOT NULL,
        filename text NOT NULL,
        content_type text NOT NULL,
        inline boolean NOT NULL,
        size bigint NOT NULL,
        sha256 text NOT NULL,
        created_by_id text NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE TABLE file_chunks (
        key text NOT NULL,
        seq int NOT NULL,
        data bytea NOT NULL,
        PRIMARY KEY (key, seq)
      )`,
      'ALTER TABLE file_chunks ALTER COLUMN data SET STORAGE EXTERNAL',
    ],
  },
  {
    version: 11,
    name: 'users role: any role name',
    // An app's User.jsonc may declare its own roles (`admin|leader|pastor|user`, `admin|student`): the users
    // service checks a role against the project's declaration, the table only bounds its spelling (the same
    // pattern as RoleSchema in schemas/auth.ts). `users_role_check` is the name PostgreSQL gave migration
    // 4's column check.
    statements: [
      'ALTER TABLE users DROP CONSTRAINT users_role_check',
      `ALTER TABLE users ADD CONSTRAINT users_role_check CHECK (role ~ '^[A-Za-z][A-Za-z0-9_-]{0,31}$')`,
    ],
  },
  {
    version: 13,
    name: 'create app_secrets',
    // Values are sealed (AES-256-GCM, services/secrets/): the table never holds a readable secret.
    statements: [
      `CREATE TABLE app_secrets (
        app_id text NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
        name text NOT NULL,
        sealed text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (app_id, name)
      )`,
    ],
  },
  {
    version: 16,
    name: 'create automation_subscriptions, automation_jobs and automation_schedules',
    // Entity automations are queued by statement triggers in the transaction of the write itself, so a
    // committed write always has its jobs (even after a crash before delivery). The triggers are created on
    // entity_records only while the project declares entity automations (automations-store.ts), so apps
    // without any pay nothing on their writes.
    statements: [
      `CREATE TABLE automation_subscriptions (
        app_id text NOT NULL,
        entity text NOT NULL,
        event text NOT NULL,
        function_name text NOT NULL,
        automation_name text NOT NULL,
        PRIMARY KEY (app_id, entity, event, function_name, automation_name)
      )`,
      `CREATE TABLE automation_jobs (
        id bigserial PRIMARY KEY,
        app_id text NOT NULL,
        function_name text NOT NULL,
        automation_name text NOT NULL,
        payload jsonb NOT NULL,
        attempts int NOT NULL DEFAULT 0,
        run_after timestamptz NOT NULL DEFAULT now(),
        locked_until timestamptz NULL,
        failed_at timestamptz NULL,
        last_error text NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
      'CREATE INDEX automation_jobs_due_idx ON automation_jobs (app_id, run_after) WHERE failed_at IS NULL',
      `CREATE TABLE automation_schedules (
        app_id text NOT NULL,
        function_name text NOT NULL,
        automation_name text NOT NULL,
        definition text NOT NULL,
        anchor_at timestamptz NOT NULL DEFAULT now(),
        next_run_at timestamptz NULL,
        runs int NOT NULL DEFAULT 0,
        last_run_at timestamptz NULL,
        PRIMARY KEY (app_id, function_name, automation_name)
      )`,
      `CREATE FUNCTION automation_enqueue_created() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO automation_jobs (app_id, function_name, automation_name, payload)
        SELECT s.app_id, s.function_name, s.automation_name,
          jsonb_build_object('type', 'create', 'record', to_jsonb(r), 'old_record', NULL)
        FROM created_rows r
        JOIN automation_subscriptions s ON s.app_id = r.app_id AND s.entity = r.entity AND s.event = 'create'
        ORDER BY r.id;
        RETURN NULL;
      END $$`,
      `CREATE FUNCTION automation_enqueue_updated() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO automation_jobs (app_id, function_name, automation_name, payload)
        SELECT s.app_id, s.function_name, s.automation_name,
          jsonb_build_object('type', 'update', 'record', to_jsonb(r), 'old_record', to_jsonb(o))
        FROM updated_rows r
        JOIN previous_rows o ON o.app_id = r.app_id AND o.entity = r.entity AND o.id = r.id
        JOIN automation_subscriptions s ON s.app_id = r.app_id AND s.entity = r.entity AND s.event = 'update'
        ORDER BY r.id;
        RETURN NULL;
      END $$`,
      `CREATE FUNCTION automation_enqueue_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO automation_jobs (app_id, function_name, automation_name, payload)
        SELECT s.app_id, s.function_name, s.automation_name,
          jsonb_build_object('type', 'delete', 'record', to_jsonb(r), 'old_record', NULL)
        FROM deleted_rows r
        JOIN automation_subscriptions s ON s.app_id = r.app_id AND s.entity = r.entity AND s.event = 'delete'
        ORDER BY r.id;
        RETURN NULL;
      END $$`,
    ],
  },
  {
    version: 20,
    name: 'create llm_usage',
    // One row per LLM call, for the operator (what each app, model and caller spent) and for the daily
    // token budget, summed from the UTC day's rows. 20 leaves 17–19 to migrations of parallel branches.
    statements: [
      `CREATE TABLE llm_usage (
        id bigserial PRIMARY KEY,
        app_id text NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
        integration text NOT NULL,
        model text NOT NULL,
        caller_kind text NOT NULL,
        user_id text NULL,
        prompt_tokens int NOT NULL,
        completion_tokens int NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
      'CREATE INDEX llm_usage_app_created_idx ON llm_usage (app_id, created_at)',
    ],
  },
  {
    version: 21,
    name: 'create app_function_logs',
    // Function logs (`appLogs.fetchLogs` with `type=function`): one row per backend function call, its
    // status, duration and bounded, redacted output (a JSON array of {stream, line}).
    statements: [
      `CREATE TABLE app_function_logs (
        id bigserial PRIMARY KEY,
        app_id text NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
        function_name text NOT NULL,
        request_id text NULL,
        trigger text NOT NULL,
        status int NOT NULL,
        duration_ms int NOT NULL,
        output jsonb NOT NULL,
        output_dropped int NOT NULL,
        logged_at timestamptz NOT NULL
      )`,
      'CREATE INDEX app_function_logs_app_time_idx ON app_function_logs (app_id, logged_at DESC, id DESC)',
    ],
  },
  {
    version: 22,
    name: 'mark anonymous uploads',
    // Anonymous uploads (FILE_ANONYMOUS_UPLOADS) that no record names are pruned on a schedule; the index
    // holds only them, so finding the expired ones reads nothing else.
    statements: [
      'ALTER TABLE files ADD COLUMN anonymous boolean NOT NULL DEFAULT false',
      'CREATE INDEX files_anonymous_created_idx ON files (created_at) WHERE anonymous',
    ],
  },
  {
    version: 23,
    name: 'stop a regex scan at its deadline',
    // Called by a `$regex` condition once its statement has run past queen.regex_deadline_ms (see
    // open-database.ts): it stops the statement with its own SQLSTATE, so the caller is told why.
    statements: [
      `CREATE OR REPLACE FUNCTION queen_regex_deadline_passed() RETURNS boolean LANGUAGE plpgsql AS $body$
      BEGIN
        RAISE EXCEPTION 'a regex scan ran past queen.regex_deadline_ms' USING ERRCODE = 'QR001';
      END
      $body$`,
    ],
  },
  {
    version: 24,
    name: 'create agent_conversations and agent_messages',
    // A conversation's messages are JSON documents in the SDK's shape, in order (position). A running turn
    // holds a lease that its instance renews: a turn whose lease ran out (its process died) is ended by
    // whichever instance notices, so no conversation stays "running".
    statements: [
      `CREATE TABLE agent_conversations (
        id text PRIMARY KEY,
        app_id text NOT NULL,
        agent_name text NOT NULL,
        created_by_id text NULL,
        created_by text NULL,
        metadata jsonb NOT NULL,
        turn_running boolean NOT NULL DEFAULT false,
        turn_lease_until timestamptz NULL,
        created_date timestamptz NOT NULL,
        updated_date timestamptz NOT NULL
      )`,
      'CREATE INDEX agent_conversations_app_created_idx ON agent_conversations (app_id, created_date DESC, id)',
      'CREATE INDEX agent_conversations_owner_idx ON agent_conversations (app_id, created_by_id, created_date DESC)',
      'CREATE INDEX agent_conversations_running_idx ON agent_conversations (turn_lease_until) WHERE turn_running',
      `CREATE TABLE agent_messages (
        conversation_id text NOT NULL REFERENCES agent_conversations (id) ON DELETE CASCADE,
        position int NOT NULL,
        id text NOT NULL,
        body jsonb NOT NULL,
        PRIMARY KEY (conversation_id, position)
      )`,
      'CREATE UNIQUE INDEX agent_messages_id_idx ON agent_messages (conversation_id, id)',
    ],
  },
  {
    version: 25,
    name: 'create provider_tokens',
    // The tokens an external sign-in provider gave for a user, sealed with the secrets key (never readable
    // from the database alone); removed with the user.
    statements: [
      `CREATE TABLE provider_tokens (
        user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        provider text NOT NULL,
        sealed text NOT NULL,
        expires_at timestamptz NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, provider)
      )`,
    ],
  },
  {
    version: 26,
    name: 'create connector_connections and connector_states',
    // A connector's connection for the app (owner_id '') or for one user, its tokens sealed with the secrets
    // key; a refresh holds a short lease so one instance refreshes while the others wait, and writes only
    // into the generation it read (a reconnect meanwhile wins). A started connect is a row keyed by the hash
    // of its state, taken once.
    statements: [
      `CREATE TABLE connector_connections (
        app_id text NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
        connector text NOT NULL,
        owner_id text NOT NULL,
        user_id text NULL REFERENCES users (id) ON DELETE CASCADE,
        sealed text NOT NULL,
        status text NOT NULL,
        expires_at timestamptz NULL,
        refresh_lease_until timestamptz NULL,
        generation int NOT NULL DEFAULT 1,
        connected_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (app_id, connector, owner_id)
      )`,
      'CREATE INDEX connector_connections_user_idx ON connector_connections (user_id) WHERE user_id IS NOT NULL',
      `CREATE TABLE connector_states (
        id text PRIMARY KEY,
        app_id text NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
        owner_id text NOT NULL,
        sealed text NOT NULL,
        expires_at timestamptz NOT NULL
      )`,
      'CREATE INDEX connector_states_owner_idx ON connector_states (app_id, owner_id, expires_at)',
      'CREATE INDEX connector_states_expiry_idx ON connector_states (expires_at)',
    ],
  },
  {
    version: 27,
    name: 'create app_audit_log',
    // Every change an operator makes (the admin API, the CLI, later the console): who, what, when, the
    // fields before and after (never a secret's value). Pruned with the other app logs.
    statements: [
      `CREATE TABLE app_audit_log (
        id bigserial PRIMARY KEY,
        app_id text NOT NULL,
        logged_at timestamptz NOT NULL DEFAULT now(),
        actor jsonb NOT NULL,
        action text NOT NULL,
        target text NOT NULL,
        before jsonb NULL,
        after jsonb NULL
      )`,
      'CREATE INDEX app_audit_log_app_time_idx ON app_audit_log (app_id, logged_at DESC, id DESC)',
    ],
  },
  {
    version: 28,
    name: 'index the console logs filters',
    // The console's Logs page pages each filter by keyset on (time, id): a filter of its own index stays as
    // fast over a million rows as the unfiltered read (migration 21's index). Failed calls are few, so a
    // partial index.
    statements: [
      `CREATE INDEX app_function_logs_app_function_time_idx
         ON app_function_logs (app_id, function_name, logged_at DESC, id DESC)`,
      `CREATE INDEX app_function_logs_app_request_idx
         ON app_function_logs (app_id, request_id) WHERE request_id IS NOT NULL`,
      `CREATE INDEX app_function_logs_app_failed_time_idx
         ON app_function_logs (app_id, logged_at DESC, id DESC) WHERE status >= 400`,
      `CREATE INDEX app_page_views_app_page_time_idx ON app_page_views (app_id, page, viewed_at DESC, id DESC)`,
    ],
  },
  {
    version: 29,
    name: 'create mail_log',
    // One row per mail sent or failed (never its recipient, subject or body), for the console's Analytics
    // and Integrations pages.
    statements: [
      `CREATE TABLE mail_log (
        id bigserial PRIMARY KEY,
        app_id text NOT NULL,
        sent_at timestamptz NOT NULL DEFAULT now(),
        ok boolean NOT NULL,
        transport text NOT NULL,
        error text NULL
      )`,
      'CREATE INDEX mail_log_app_time_idx ON mail_log (app_id, sent_at)',
    ],
  },
  {
    version: 30,
    name: 'roll page views up per day',
    // The console's Analytics charts read per-UTC-day rollups, kept by a statement-level trigger from the rows
    // each INSERT adds (whoever inserts: the page-view writer, a seed): a GROUP BY over the raw rows took over
    // 5 s on PGlite for 90 days of 1,000,000 views (bench/src/console-analytics.ts). Visitors per day are the
    // visitor keys first seen that day (the key rotates daily), so a key is counted once however many batches
    // bring it, on every instance at once (ON CONFLICT). Every upsert takes its rows in key order, so two
    // instances' batches wait for each other rather than deadlock. Pruned with the raw rows, by day.
    statements: [
      `CREATE TABLE app_page_view_days (
        app_id text NOT NULL, day date NOT NULL, views bigint NOT NULL, visitors bigint NOT NULL,
        PRIMARY KEY (app_id, day)
      )`,
      `CREATE TABLE app_page_visitor_days (
        app_id text NOT NULL, day date NOT NULL, visitor_key text NOT NULL,
        PRIMARY KEY (app_id, day, visitor_key)
      )`,
      `CREATE TABLE app_page_view_page_days (
        app_id text NOT NULL, day date NOT NULL, page text NOT NULL, views bigint NOT NULL,
        PRIMARY KEY (app_id, day, page)
      )`,
      `CREATE TABLE app_page_view_referrer_days (
        app_id text NOT NULL, day date NOT NULL, host text NOT NULL, views bigint NOT NULL,
        PRIMARY KEY (app_id, day, host)
      )`,
      // The referrer's host only: lower-case, without scheme, credentials, port, path or query.
      `CREATE FUNCTION referrer_host(referrer text) RETURNS text LANGUAGE sql IMMUTABLE AS
        $$ SELECT lower(substring(referrer from '^[A-Za-z][A-Za-z0-9+.-]*://(?:[^/?#@]*@)?([^/?#:]+)')) $$`,
      `CREATE FUNCTION app_page_views_roll_up() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        WITH fresh AS (
          INSERT INTO app_page_visitor_days (app_id, day, visitor_key)
          SELECT DISTINCT app_id, (viewed_at AT TIME ZONE 'UTC')::date, visitor_key FROM added ORDER BY 1, 2, 3
          ON CONFLICT DO NOTHING RETURNING app_id, day
        ), fresh_counts AS (
          SELECT app_id, day, count(*) AS n FROM fresh GROUP BY 1, 2
        ), view_counts AS (
          SELECT app_id, (viewed_at AT TIME ZONE 'UTC')::date AS day, count(*) AS n FROM added GROUP BY 1, 2
        )
        INSERT INTO app_page_view_days (app_id, day, views, visitors)
        SELECT v.app_id, v.day, v.n, coalesce(f.n, 0) FROM view_counts v LEFT JOIN fresh_counts f USING (app_id, day)
        ORDER BY 1, 2
        ON CONFLICT (app_id, day) DO UPDATE SET views = app_page_view_days.views + EXCLUDED.views,
          visitors = app_page_view_days.visitors + EXCLUDED.visitors;
        INSERT INTO app_page_view_page_days (app_id, day, page, views)
        SELECT app_id, (viewed_at AT TIME ZONE 'UTC')::date, page, count(*) FROM added GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
        ON CONFLICT (app_id, day, page) DO UPDATE SET views = app_page_view_page_days.views + EXCLUDED.views;
        INSERT INTO app_page_view_referrer_days (app_id, day, host, views)
        SELECT app_id, (viewed_at AT TIME ZONE 'UTC')::date, referrer_host(referrer), count(*) FROM added
        WHERE referrer_host(referrer) IS NOT NULL GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
        ON CONFLICT (app_id, day, host) DO UPDATE SET views = app_page_view_referrer_days.views + EXCLUDED.views;
        RETURN NULL;
      END $$`,
      `CREATE TRIGGER app_page_views_roll_up AFTER INSERT ON app_page_views REFERENCING NEW TABLE AS added
        FOR EACH STATEMENT EXECUTE FUNCTION app_page_views_roll_up()`,
      // The views stored before this migration.
      `INSERT INTO app_page_visitor_days (app_id, day, visitor_key)
        SELECT DISTINCT app_id, (viewed_at AT TIME ZONE 'UTC')::date, visitor_key FROM app_page_views`,
      `INSERT INTO app_page_view_days (app_id, day, views, visitors)
        SELECT app_id, (viewed_at AT TIME ZONE 'UTC')::date, count(*), count(DISTINCT visitor_key)
        FROM app_page_views GROUP BY 1, 2`,
      `INSERT INTO app_page_view_page_days (app_id, day, page, views)
        SELECT app_id, (viewed_at AT TIME ZONE 'UTC')::date, page, count(*) FROM app_page_views GROUP BY 1, 2, 3`,
      `INSERT INTO app_page_view_referrer_days (app_id, day, host, views)
        SELECT app_id, (viewed_at AT TIME ZONE 'UTC')::date, referrer_host(referrer), count(*) FROM app_page_views
        WHERE referrer_host(referrer) IS NOT NULL GROUP BY 1, 2, 3`,
    ],
  },
  {
    version: 31,
    name: 'sign-in sessions',
    // A token minted for a session (the console's sign-in) counts while its row is here: signing out deletes
    // it, on every instance at once. Expired rows are pruned by expires_at.
    statements: [
      `CREATE TABLE sign_in_sessions (
        id text PRIMARY KEY,
        app_id text NOT NULL,
        user_id text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      )`,
      'CREATE INDEX sign_in_sessions_expiry ON sign_in_sessions (expires_at)',
      'CREATE INDEX sign_in_sessions_user ON sign_in_sessions (app_id, user_id, created_at DESC)',
    ],
  },
  {
    version: 32,
    name: 'function calls keep their caller',
    // The console's Logs page filters calls by the signed-in caller; calls before this have none (NULL),
    // like anonymous ones and automations, which the partial index leaves out.
    statements: [
      'ALTER TABLE app_function_logs ADD COLUMN user_id text',
      `CREATE INDEX app_function_logs_app_user_time_idx
         ON app_function_logs (app_id, user_id, logged_at DESC, id DESC) WHERE user_id IS NOT NULL`,
    ],
  },
];

/**
 * MIGRATION_LOCK_KEY is the PostgreSQL advisory lock key migrations hold: "QUEENMIG" in ASCII, so it is
 * unlikely to collide with another application's lock on a shared database.
 */
export const MIGRATION_LOCK_KEY = '5860666654061316423';

/**
 * withAdvisoryLock runs fn while holding the session-level advisory lock key on one connection, so other
 * processes calling it with the same key wait their turn. A database without sessions (PGlite, owned by a
 * single process) runs fn directly.
 *
 * @example await withAdvisoryLock(db, MIGRATION_LOCK_KEY, (locked) => applyPending(locked));
 */
export async function withAdvisoryLock<T>(
  db: Database,
  key: string,
  fn: (locked: Database) => Promise<T>,
): Promise<T> {
  if (!db.session) return fn(db);
  return db.session(async (locked) => {
    // Waiting for the lock, and what runs under it (a migration over a large table), may take longer than
    // DATABASE_QUERY_TIMEOUT_MS: this session alone lifts statement_timeout, and restores it for the pool.
    await locked.query('SET statement_timeout = 0');
    await locked.query('SELECT pg_advisory_lock($1::bigint)', [key]);
    try {
      return await fn(locked);
    } finally {
      // NB: if the unlock fails the connection is gone, and PostgreSQL released the lock with it.
      await locked.query('SELECT pg_advisory_unlock($1::bigint)', [key]).catch(() => undefined);
      await locked.query('RESET statement_timeout').catch(() => undefined);
    }
  });
}

/**
 * runMigrations applies every migration not yet recorded, each once, in order, in its own transaction.
 * It holds the migration advisory lock throughout, so instances starting together do not race.
 */
export async function runMigrations(db: Database): Promise<string[]> {
  return withAdvisoryLock(db, MIGRATION_LOCK_KEY, applyPending);
}

async function applyPending(db: Database): Promise<string[]> {
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
