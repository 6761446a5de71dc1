// Calls this server does not offer (SMS, agents' messaging channels) answer 501 JSON naming the missing
// capability, in-process; the real-apps e2e project checks the same from a browser.
import { describe, expect, it } from 'vitest';
import { TEST_APP_ID, TEST_SERVICE_TOKEN, useTestPlatform } from '../test-support/build-test-platform';

const built = useTestPlatform();

async function call(method: 'GET' | 'POST', url: string) {
  const response = await built.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${TEST_SERVICE_TOKEN}`, 'content-type': 'application/json' },
    ...(method === 'POST' ? { payload: { prompt: 'hi' } } : {}),
  });
  return { status: response.statusCode, type: response.headers['content-type'], body: response.json() };
}

describe('capabilities of later issues', () => {
  it.each([
    ['POST', `/api/apps/${TEST_APP_ID}/integration-endpoints/Core/SendSMS`, 'Core.SendSMS'],
    ['GET', `/api/apps/${TEST_APP_ID}/agents/support_bot/whatsapp`, 'WhatsApp'],
    ['GET', `/api/apps/${TEST_APP_ID}/agents/support_bot/telegram`, 'Telegram'],
  ] as const)('%s %s answers 501 naming %s', async (method, url, capability) => {
    const answer = await call(method, url);
    expect(answer.status).toBe(501);
    expect(answer.type).toMatch(/application\/json/);
    expect(answer.body).toEqual({
      message: expect.stringContaining(capability),
      extra_data: { reason: 'not_implemented' },
    });
    expect(answer.body.message).toContain('not available on this server');
  });

  it.each(['InvokeLLM', 'TranscribeAudio'])(
    'Core.%s without a provider is 503 naming LLM_PROVIDER_URL',
    async (name) => {
      const answer = await call('POST', `/api/apps/${TEST_APP_ID}/integration-endpoints/Core/${name}`);
      expect(answer.status).toBe(503);
      expect(answer.body.message).toContain('LLM_PROVIDER_URL');
    },
  );

  it('answers a function the project lacks with 404 JSON (functions are no longer 501)', async () => {
    for (const [method, url] of [
      ['POST', `/api/apps/${TEST_APP_ID}/functions/exportExpenses`],
      ['GET', '/api/functions/stream/x?y=1'],
    ] as const) {
      const answer = await call(method, url);
      expect(answer.status).toBe(404);
      expect(answer.body.message).toMatch(/^Function (exportExpenses|stream) not found$/);
    }
  });

  it('leaves other unknown API paths a plain 404', async () => {
    expect((await call('GET', '/api/apps/x/nothing')).status).toBe(404);
  });
});
