// The Integrations page's SQL on PGlite and (with DATABASE_URL) PostgreSQL: today's LLM use per caller and
// its top users (other apps and older calls left out), the last mails and today's counts, the files stored,
// and a prune's candidates for one app.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_ENGINES, type TestDatabase } from '../test-support/open-test-database';
import { createFilesStore } from './files-store';
import { createIntegrationsConsoleStore } from './integrations-console-store';
import { createLlmUsageStore } from './llm-usage-store';
import { createMailLogStore } from './mail-log-store';

describe.each(TEST_ENGINES)('integrations console SQL on %s', (name) => {
  let engine: TestDatabase;

  beforeAll(async () => {
    engine = await openTestDatabase({ engine: name, name: 'integrations_console' });
    await engine.db.query('INSERT INTO apps (id) VALUES ($1), ($2)', ['a1', 'a2']);
    await engine.db.query(`INSERT INTO users (id, app_id, email) VALUES ('u1', 'a1', 'one@x.test')`);
  });
  afterAll(async () => engine.close());

  it('sums today per caller and ranks the top users, gone ones without an email', async () => {
    const since = new Date(Date.now() - 60_000);
    const now = new Date().toISOString();
    const row = (app_id: string, user_id: string | null, tokens: number, created_at = now) => ({
      app_id,
      integration: 'InvokeLLM',
      model: 'm',
      caller_kind: user_id ? ('user' as const) : ('service' as const),
      user_id,
      prompt_tokens: tokens,
      completion_tokens: 0,
      created_at,
    });
    await createLlmUsageStore(engine.db).insertBatch([
      row('a1', 'u1', 10),
      row('a1', 'u1', 5),
      row('a1', 'gone', 30),
      row('a1', null, 7),
      row('a1', 'u1', 1000, new Date(Date.now() - 3_600_000).toISOString()),
      row('a2', 'u1', 500),
    ]);
    const store = createIntegrationsConsoleStore(engine.db);
    expect(await store.llmUseSince('a1', since)).toEqual([
      { caller_kind: 'service', calls: 1, tokens: 7 },
      { caller_kind: 'user', calls: 3, tokens: 45 },
    ]);
    expect(await store.llmTopUsersSince('a1', since, 1)).toEqual([
      { user_id: 'gone', email: null, calls: 1, tokens: 30 },
    ]);
    expect(await store.llmTopUsersSince('a1', since, 10)).toEqual([
      { user_id: 'gone', email: null, calls: 1, tokens: 30 },
      { user_id: 'u1', email: 'one@x.test', calls: 2, tokens: 15 },
    ]);
  });

  it("lists the last mails newest first and counts today's", async () => {
    const mails = createMailLogStore(engine.db);
    await mails.insert({ app_id: 'a1', ok: true, transport: 'smtp', error: null });
    await mails.insert({ app_id: 'a1', ok: false, transport: 'smtp', error: 'refused' });
    await mails.insert({ app_id: 'a2', ok: true, transport: 'smtp', error: null });
    const store = createIntegrationsConsoleStore(engine.db);
    const recent = await store.recentMails('a1', 1);
    expect(recent).toEqual([{ sent_at: expect.any(String), ok: false, transport: 'smtp', error: 'refused' }]);
    expect(await store.mailsSince('a1', new Date(Date.now() - 60_000))).toEqual({ sent: 1, failed: 1 });
  });

  it("counts the files stored and lists one app's prune candidates, oldest first, bounded", async () => {
    const files = createFilesStore(engine.db);
    const file = (key: string, app_id: string, size: number) => ({
      key,
      app_id,
      private: false,
      filename: `${key}.txt`,
      content_type: 'text/plain',
      inline: true,
      size,
      sha256: 'x',
      created_by_id: null,
    });
    await files.insert(file('k1', 'a1', 3));
    await files.insert(file('k2', 'a1', 4));
    await files.insert(file('k3', 'a2', 100));
    await engine.db.query(`UPDATE files SET created_at = now() - interval '2 hours' WHERE key = 'k1'`);
    const store = createIntegrationsConsoleStore(engine.db);
    expect(await store.storedFiles('a1')).toEqual({ files: 2, bytes: 7 });
    expect(await store.storedFiles('nobody')).toEqual({ files: 0, bytes: 0 });
    expect((await files.olderThanIn('a1', 0, 10)).map((row) => row.key)).toEqual(['k1', 'k2']);
    expect((await files.olderThanIn('a1', 0, 1)).map((row) => row.key)).toEqual(['k1']);
    expect((await files.olderThanIn('a1', 3600, 10)).map((row) => row.key)).toEqual(['k1']);
  });
});
