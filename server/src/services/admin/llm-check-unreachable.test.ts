// The console's LLM check against a provider that does not listen: "not reachable" with the server's own
// sentence (never the key), kept as the summary's last check; nothing is counted against the budget.
import { describe, expect, it } from 'vitest';
import { TEST_APP_ID, TEST_SERVICE_TOKEN, useTestPlatform } from '../../test-support/build-test-platform';

const KEY = 'sk-never-shown-0123456789';
// Port 1 (tcpmux): nothing listens there on a test machine, so the connection is refused at once.
const test = useTestPlatform({ LLM_PROVIDER_URL: 'http://127.0.0.1:1/v1', LLM_API_KEY: KEY });
const BASE = `/api/apps/${TEST_APP_ID}/admin/integrations`;
const SERVICE = { authorization: `Bearer ${TEST_SERVICE_TOKEN}` };

describe('the LLM check, provider unreachable', () => {
  it('says not reachable, keeps it for the summary, and spends no tokens', async () => {
    const check = await test.app.inject({
      method: 'POST',
      url: `${BASE}/llm/check`,
      headers: SERVICE,
      payload: {},
    });
    expect(check.statusCode).toBe(200);
    expect(check.json()).toMatchObject({
      configured: true,
      ok: false,
      model: 'gpt-4o-mini',
      tokens: 0,
      problem: 'The LLM provider could not be reached',
    });
    const summary = await test.app.inject({ url: BASE, headers: SERVICE });
    expect(summary.json()).toMatchObject({
      llm: { configured: true, host: '127.0.0.1:1', last_check: { ok: false } },
      budget: { used_tokens: 0, calls: 0 },
    });
    expect(check.body + summary.body).not.toContain(KEY);
  });
});
