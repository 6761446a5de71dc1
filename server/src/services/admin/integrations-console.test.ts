// The console's Integrations endpoints on the whole platform: the summary (no LLM provider here, today's
// token use and top users from llm_usage, the last mails without their recipients, the files stored), the
// check without a provider, the prune's dry run then its audited removal, bad input as 4xx, and a plain
// user refused on every endpoint.
import { beforeAll, describe, expect, it } from 'vitest';
import { createLlmUsageStore } from '../../store/llm-usage-store';
import { createMailLogStore } from '../../store/mail-log-store';
import { TEST_APP_ID, TEST_SERVICE_TOKEN, useTestPlatform } from '../../test-support/build-test-platform';

const test = useTestPlatform();
const BASE = `/api/apps/${TEST_APP_ID}/admin/integrations`;
const SERVICE = { authorization: `Bearer ${TEST_SERVICE_TOKEN}` };
const BOUNDARY = '----queen-integrations-test';
const PASSWORD = 'correct horse battery';
const tokens = { admin: '', user: '', userId: '' };

async function makeUser(email: string, role: 'admin' | 'user') {
  const created = await test.app.inject({
    method: 'POST',
    url: `/api/apps/${TEST_APP_ID}/admin/users`,
    headers: SERVICE,
    payload: { email, password: PASSWORD, role },
  });
  const login = await test.app.inject({
    method: 'POST',
    url: `/api/apps/${TEST_APP_ID}/auth/login`,
    payload: { email, password: PASSWORD },
  });
  return {
    id: created.json<{ id: string }>().id,
    token: login.json<{ access_token: string }>().access_token,
  };
}

beforeAll(async () => {
  tokens.admin = (await makeUser('admin@integrations.test', 'admin')).token;
  const user = await makeUser('user@integrations.test', 'user');
  tokens.user = user.token;
  tokens.userId = user.id;
});

const as = (token: string) => ({ authorization: `Bearer ${token}` });
const summary = async () => {
  const response = await test.app.inject({ url: BASE, headers: as(tokens.admin) });
  expect(response.statusCode).toBe(200);
  return response.json<{
    llm: { configured: boolean; host: string | null; last_check: unknown };
    budget: {
      daily_tokens: number;
      used_tokens: number;
      calls: number;
      top_users: { user_id: string; email: string | null; tokens: number; calls: number }[];
    };
    mail: {
      mode: string;
      today: { sent: number; failed: number };
      recent: { ok: boolean; error: string | null }[];
    };
    custom: unknown[];
    files: { storage: string; files: number; bytes: number };
  }>();
};
const prune = (payload: unknown, headers = as(tokens.admin)) =>
  test.app.inject({ method: 'POST', url: `${BASE}/files/prune`, headers, payload: payload as object });

describe('the Integrations page endpoints', () => {
  it("sums today's LLM use and names the top users; mails are listed without their addresses", async () => {
    const { db } = test.platform.database;
    const now = new Date().toISOString();
    const row = { app_id: TEST_APP_ID, integration: 'InvokeLLM', model: 'm', created_at: now };
    await createLlmUsageStore(db).insertBatch([
      { ...row, caller_kind: 'user', user_id: tokens.userId, prompt_tokens: 30, completion_tokens: 10 },
      { ...row, caller_kind: 'user', user_id: tokens.userId, prompt_tokens: 5, completion_tokens: 5 },
      { ...row, caller_kind: 'service', user_id: null, prompt_tokens: 100, completion_tokens: 0 },
      // Yesterday's and another app's calls are not today's use.
      {
        ...row,
        created_at: new Date(Date.now() - 2 * 86_400_000).toISOString(),
        caller_kind: 'service',
        user_id: null,
        prompt_tokens: 7,
        completion_tokens: 0,
      },
    ]);
    const mails = createMailLogStore(db);
    await mails.insert({ app_id: TEST_APP_ID, ok: true, transport: 'outbox', error: null });
    await mails.insert({
      app_id: TEST_APP_ID,
      ok: false,
      transport: 'smtp',
      error: '550 <bob@example.com> unknown',
    });
    const body = await summary();
    expect(body.llm).toEqual({
      configured: false,
      host: null,
      model: 'gpt-4o-mini',
      timeout_ms: 60_000,
      last_check: null,
    });
    expect(body.budget).toMatchObject({ daily_tokens: 1_000_000, used_tokens: 150, calls: 3 });
    expect(body.budget.top_users).toEqual([
      { user_id: tokens.userId, email: 'user@integrations.test', calls: 2, tokens: 50 },
    ]);
    expect(body.mail).toMatchObject({ mode: 'outbox', today: { sent: 1, failed: 1 } });
    expect(body.mail.recent.map((mail) => mail.error)).toEqual(['550 <[address]> unknown', null]);
    expect(JSON.stringify(body)).not.toContain('bob@example.com');
    expect(body.custom).toEqual([]);
  });

  it('checks nothing without a provider', async () => {
    const response = await test.app.inject({
      method: 'POST',
      url: `${BASE}/llm/check`,
      headers: as(tokens.admin),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ configured: false });
  });

  it('shows the bytes stored; a dry run lists an unreferenced file, the removal deletes it, audited', async () => {
    const uploaded = await test.app.inject({
      method: 'POST',
      url: `/api/apps/${TEST_APP_ID}/integration-endpoints/Core/UploadFile`,
      headers: { ...SERVICE, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      payload: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="loose.txt"\r\nContent-Type: text/plain\r\n\r\nloose\r\n--${BOUNDARY}--\r\n`,
    });
    expect(uploaded.statusCode).toBe(200);
    expect((await summary()).files).toEqual({ storage: 'disk', files: 1, bytes: 5 });
    // Younger than the default 24 h: kept.
    expect((await prune({ dry_run: true })).json()).toMatchObject({ count: 0, files: [] });
    const dry = await prune({ dry_run: true, min_age_hours: 0 });
    expect(dry.json()).toMatchObject({
      dry_run: true,
      count: 1,
      bytes: 5,
      more: false,
      files: [{ filename: 'loose.txt', size: 5 }],
    });
    expect((await summary()).files.files).toBe(1);
    const removal = await prune({ dry_run: false, min_age_hours: 0 });
    expect(removal.json()).toMatchObject({ dry_run: false, count: 1, bytes: 5 });
    expect((await summary()).files).toEqual({ storage: 'disk', files: 0, bytes: 0 });
    const audit = await test.app.inject({
      url: `/api/apps/${TEST_APP_ID}/admin/audit-log`,
      headers: SERVICE,
    });
    const entries = audit.json<{ items: { action: string; after: unknown; actor: { email?: string } }[] }>()
      .items;
    expect(entries.filter((entry) => entry.action === 'files.prune')).toEqual([
      expect.objectContaining({
        after: { removed: 1, bytes: 5, min_age_hours: 0 },
        actor: expect.objectContaining({ email: 'admin@integrations.test' }),
      }),
    ]);
  });

  it('answers bad input with a 4xx', async () => {
    expect((await prune({})).statusCode).toBe(400);
    expect((await prune({ dry_run: true, min_age_hours: -1 })).statusCode).toBe(400);
    expect((await prune({ dry_run: 'yes' })).statusCode).toBe(400);
    const tryIt = (slug: string, payload: object) =>
      test.app.inject({
        method: 'POST',
        url: `${BASE}/custom/${slug}/try`,
        headers: as(tokens.admin),
        payload,
      });
    expect((await tryIt('nope', { operation: 'get:/x' })).statusCode).toBe(404);
    expect((await tryIt('nope', {})).statusCode).toBe(400);
    expect((await tryIt('nope', { operation: 'get:/x', payload: 'x'.repeat(70_000) })).statusCode).toBe(413);
  });

  it('refuses a plain user (403) and an anonymous caller (401) on every endpoint', async () => {
    const endpoints = [
      { method: 'GET' as const, url: BASE },
      { method: 'POST' as const, url: `${BASE}/llm/check`, payload: {} },
      { method: 'POST' as const, url: `${BASE}/custom/any/try`, payload: { operation: 'get:/x' } },
      { method: 'POST' as const, url: `${BASE}/files/prune`, payload: { dry_run: false, min_age_hours: 0 } },
    ];
    for (const endpoint of endpoints) {
      expect((await test.app.inject({ ...endpoint, headers: as(tokens.user) })).statusCode).toBe(403);
      expect((await test.app.inject(endpoint)).statusCode).toBe(401);
    }
  });
});
