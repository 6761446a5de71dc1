// The console's Overview and Settings read the server's settings: a password inside SMTP_URL or
// LLM_PROVIDER_URL, the service token and an app secret's value appear in no admin answer.
import { expect, it } from 'vitest';
import { TEST_APP_ID, TEST_SERVICE_TOKEN, useTestPlatform } from '../test-support/build-test-platform';

const SMTP_PASSWORD = 'smtp-pw-0d1f2e';
const LLM_KEY = 'llm-key-7a8b9c';
const SECRET_VALUE = 'secret-value-5e6f7a';

const test = useTestPlatform({
  SMTP_URL: `smtp://mailer:${SMTP_PASSWORD}@127.0.0.1:2525`,
  LLM_PROVIDER_URL: `http://proxy:${LLM_KEY}@127.0.0.1:9/v1`,
});

it('no admin answer holds a credential from the settings or a secret', async () => {
  const admin = (method: 'GET' | 'PUT', path: string, payload?: object) =>
    test.app.inject({
      method,
      url: `/api/apps/${TEST_APP_ID}/admin/${path}`,
      headers: { authorization: `Bearer ${TEST_SERVICE_TOKEN}` },
      ...(payload ? { payload } : {}),
    });
  expect((await admin('PUT', 'secrets/MAIL_API_KEY', { value: SECRET_VALUE })).statusCode).toBe(200);
  const answers = [];
  for (const path of ['overview', 'secrets', 'integrations', 'audit-log', 'logs/audit']) {
    const answer = await admin('GET', path);
    expect(answer.statusCode, path).toBe(200);
    answers.push(answer.body);
  }
  const text = answers.join('\n');
  // What the pages do show: that SMTP is on and where, and the LLM provider's host.
  expect(text).toContain('SMTP at 127.0.0.1:2525');
  expect(text).toContain('MAIL_API_KEY');
  for (const credential of [SMTP_PASSWORD, LLM_KEY, SECRET_VALUE, TEST_SERVICE_TOKEN]) {
    expect(text).not.toContain(credential);
  }
});
