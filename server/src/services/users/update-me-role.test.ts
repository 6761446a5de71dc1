// updateMe and `role`: real onboarding pages send the caller's current role back with their profile
// changes; that is accepted (and changes nothing), while any other role stays refused (in-process platform).
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestPlatform,
  TEST_APP_ID,
  TEST_SERVICE_TOKEN,
  type TestPlatform,
} from '../../test-support/build-test-platform';

let platform: TestPlatform;
let app: FastifyInstance;
const api = `/api/apps/${TEST_APP_ID}`;
const service = { authorization: `Bearer ${TEST_SERVICE_TOKEN}` };

beforeAll(async () => {
  platform = await buildTestPlatform();
  app = platform.app;
});

afterAll(async () => {
  await platform?.dispose();
});

/** signedIn creates a user with role through the operator API and returns its bearer header. */
async function signedIn(email: string, role: 'user' | 'admin') {
  const created = await app.inject({
    method: 'POST',
    url: `${api}/admin/users`,
    headers: service,
    payload: { email, password: 'a-long-password-1', role },
  });
  expect(created.statusCode).toBe(201);
  const { id } = created.json<{ id: string }>();
  const minted = await app.inject({ url: `${api}/auth/sso/accesstoken/${id}`, headers: service });
  expect(minted.statusCode).toBe(200);
  return { authorization: `Bearer ${minted.json<{ access_token: string }>().access_token}` };
}

const updateMe = (headers: Record<string, string>, payload: Record<string, unknown>) =>
  app.inject({ method: 'PUT', url: `${api}/entities/User/me`, headers, payload });

describe('updateMe with a role', () => {
  it('accepts the caller’s current role unchanged with the other changes', async () => {
    for (const role of ['user', 'admin'] as const) {
      const headers = await signedIn(`same-${role}@example.test`, role);
      const response = await updateMe(headers, { role, full_name: 'Onboarded', team: 'blue' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ role, full_name: 'Onboarded', team: 'blue' });
    }
  });

  it('refuses a different role with 400 naming role, and changes nothing', async () => {
    for (const [role, other] of [
      ['user', 'admin'],
      ['admin', 'user'],
    ] as const) {
      const headers = await signedIn(`other-${role}@example.test`, role);
      const response = await updateMe(headers, { role: other, full_name: 'Climber' });
      expect(response.statusCode).toBe(400);
      expect(response.json<{ message: string }>().message).toContain('role');
      const me = await app.inject({ url: `${api}/entities/User/me`, headers });
      expect(me.json()).toMatchObject({ role });
      expect(me.json()).not.toMatchObject({ full_name: 'Climber' });
    }
  });
});
