// The app keeps one enabled admin whichever door a demotion comes through: the SDK's User update, the
// console's record route, and the SDK's invite (review findings: a disabled admin counted, and the invite
// demoted the only admin).
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_APP_ID, TEST_SERVICE_TOKEN, useTestPlatform } from '../test-support/build-test-platform';

const test = useTestPlatform({ PUBLIC_URL: 'http://last-admin.test' });
const base = `/api/apps/${TEST_APP_ID}`;
const PASSWORD = 'correct horse battery';
const people = { boss: { id: '', token: '' }, other: { id: '', token: '' } };
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function admin(name: keyof typeof people) {
  const email = `${name}@last-admin.test`;
  const made = await test.app.inject({
    method: 'POST',
    url: `${base}/admin/users`,
    headers: bearer(TEST_SERVICE_TOKEN),
    payload: { email, password: PASSWORD, role: 'admin' },
  });
  expect(made.statusCode).toBe(201);
  const login = await test.app.inject({
    method: 'POST',
    url: `${base}/auth/login`,
    payload: { email, password: PASSWORD },
  });
  const answer = login.json<{ access_token: string; user: { id: string } }>();
  people[name] = { id: answer.user.id, token: answer.access_token };
}

beforeAll(async () => {
  await admin('boss');
  await admin('other');
  // The other admin is disabled: boss is the only enabled admin.
  const disabled = await test.app.inject({
    method: 'PATCH',
    url: `${base}/admin/users`,
    headers: bearer(TEST_SERVICE_TOKEN),
    payload: { email: 'other@last-admin.test', disabled: true },
  });
  expect(disabled.statusCode).toBe(200);
});

describe('the last enabled admin', () => {
  it('is not demoted through the User entity, nor the console record route (a disabled admin does not count)', async () => {
    for (const url of [
      `${base}/entities/User/${people.boss.id}`,
      `${base}/admin/entities/User/records/${people.boss.id}`,
    ]) {
      const answer = await test.app.inject({
        method: 'PUT',
        url,
        headers: bearer(people.boss.token),
        payload: { role: 'user' },
      });
      expect(answer.statusCode, url).toBe(403);
      expect(answer.json<{ message: string }>().message).toContain('only admin');
    }
  });

  it('is not demoted by an invite with another role', async () => {
    const answer = await test.app.inject({
      method: 'POST',
      url: `${base}/users/invite-user`,
      headers: bearer(people.boss.token),
      payload: { user_email: 'BOSS@last-admin.test', role: 'user' },
    });
    expect(answer.statusCode).toBe(403);
    const me = await test.app.inject({ url: `${base}/entities/User/me`, headers: bearer(people.boss.token) });
    expect(me.json<{ role: string }>().role).toBe('admin');
  });

  it('a disabled admin may be demoted', async () => {
    const answer = await test.app.inject({
      method: 'PUT',
      url: `${base}/entities/User/${people.other.id}`,
      headers: bearer(people.boss.token),
      payload: { role: 'user' },
    });
    expect(answer.statusCode).toBe(200);
  });
});
