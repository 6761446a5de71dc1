// Roles an app's User.jsonc declares are real (in-process platform): new users get the declared default,
// admins and the service role give any declared role and no other (400 naming role), users never change
// their own, `admin` stays the operator, and rules compare the stored role (`user_condition.role`,
// `{{user.role}}`).
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestPlatform,
  TEST_APP_ID,
  TEST_SERVICE_TOKEN,
  type TestPlatform,
} from '../../test-support/build-test-platform';

const api = `/api/apps/${TEST_APP_ID}`;
const service = { authorization: `Bearer ${TEST_SERVICE_TOKEN}` };
const PASSWORD = 'a-long-password-1';

const userFile = (roles: string[], fallback: string) => ({
  name: 'User',
  type: 'object',
  properties: { role: { type: 'string', enum: roles, default: fallback }, is_leader: { type: 'boolean' } },
});

// As real apps write them: a role condition, and a record field compared with the caller's role.
const SERMON = {
  name: 'Sermon',
  type: 'object',
  properties: { title: { type: 'string' } },
  rls: {
    create: { user_condition: { role: 'admin' } },
    read: { $or: [{ user_condition: { role: 'leader' } }, { user_condition: { role: 'admin' } }] },
  },
};
const NOTICE = {
  name: 'Notice',
  type: 'object',
  properties: { audience: { type: 'string' }, text: { type: 'string' } },
  rls: { read: { audience: '{{user.role}}' } },
};

/** rolesApp builds a platform whose User.jsonc declares roles with fallback, plus Sermon and Notice. */
function rolesApp(roles: string[], fallback: string) {
  return buildTestPlatform(
    { PUBLIC_URL: 'http://127.0.0.1:8080' },
    { entities: { 'User.jsonc': userFile(roles, fallback), 'Sermon.jsonc': SERMON, 'Notice.jsonc': NOTICE } },
  );
}

function client(app: FastifyInstance) {
  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH',
    url: string,
    headers: Record<string, string> = {},
    payload?: Record<string, unknown>,
  ) => app.inject({ method, url: `${api}/${url}`, headers, ...(payload === undefined ? {} : { payload }) });
  const tokenFor = async (id: string) => {
    const minted = await call('GET', `auth/sso/accesstoken/${id}`, service);
    expect(minted.statusCode).toBe(200);
    return { authorization: `Bearer ${minted.json<{ access_token: string }>().access_token}` };
  };
  const userByEmail = async (email: string) => {
    const listed = await call(
      'GET',
      `entities/User?q=${encodeURIComponent(JSON.stringify({ email }))}`,
      service,
    );
    return listed.json<{ id: string; role: string }[]>()[0];
  };
  /** created adds a user through the operator API (role absent: the app's default) and signs them in. */
  const created = async (email: string, role?: string) => {
    const made = await call('POST', 'admin/users', service, { email, password: PASSWORD, role });
    expect(made.statusCode, made.body).toBe(201);
    const user = made.json<{ id: string; role: string }>();
    return { ...user, headers: await tokenFor(user.id) };
  };
  return { call, tokenFor, userByEmail, created };
}

describe('an app declaring admin|leader|user, default user', () => {
  let platform: TestPlatform;
  let api: ReturnType<typeof client>;

  beforeAll(async () => {
    platform = await rolesApp(['admin', 'leader', 'user'], 'user');
    api = client(platform.app);
    await api.call('POST', 'entities/Sermon', service, { title: 'On patience' });
    for (const audience of ['leader', 'user']) {
      await api.call('POST', 'entities/Notice', service, { audience, text: `for ${audience}` });
    }
  });

  afterAll(async () => {
    await platform?.dispose();
  });

  it('an admin makes a user leader; the leader then reads what rules give leaders', async () => {
    const admin = await api.created('pastor-admin@example.test', 'admin');
    const member = await api.created('member@example.test');
    expect(member.role).toBe('user');
    expect((await api.call('GET', 'entities/Sermon', member.headers)).json()).toEqual([]);

    const promoted = await api.call('PUT', `entities/User/${member.id}`, admin.headers, { role: 'leader' });
    expect(promoted.statusCode, promoted.body).toBe(200);
    expect(promoted.json()).toMatchObject({ id: member.id, role: 'leader' });
    // The role change voids older tokens at once (token version), so the identity cache never serves it.
    expect((await api.call('GET', 'entities/User/me', member.headers)).statusCode).toBe(401);

    const leader = await api.tokenFor(member.id);
    expect((await api.call('GET', 'entities/User/me', leader)).json()).toMatchObject({ role: 'leader' });
    expect((await api.call('GET', 'entities/Sermon', leader)).json()).toMatchObject([
      { title: 'On patience' },
    ]);
    const notices = (await api.call('GET', 'entities/Notice', leader)).json<{ text: string }[]>();
    expect(notices.map((notice) => notice.text)).toEqual(['for leader']);
  });

  it('refuses a role the app does not declare with 400 naming role, changing nothing', async () => {
    const admin = await api.created('admin-2@example.test', 'admin');
    const member = await api.created('member-2@example.test');
    const cases = [
      api.call('PUT', `entities/User/${member.id}`, admin.headers, { role: 'pastor' }),
      api.call('PUT', `entities/User/${member.id}`, service, { role: 'student' }),
      api.call('PATCH', 'admin/users', service, { email: 'member-2@example.test', role: 'pastor' }),
      api.call('POST', 'admin/users', service, {
        email: 'new-3@example.test',
        password: PASSWORD,
        role: 'x',
      }),
      api.call('POST', 'users/invite-user', admin.headers, {
        user_email: 'inv@example.test',
        role: 'pastor',
      }),
      api.call('PUT', `entities/User/${member.id}`, admin.headers, { role: 'has space' }),
    ];
    for (const response of await Promise.all(cases)) {
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json<{ message: string }>().message).toContain('role');
    }
    expect(await api.userByEmail('member-2@example.test')).toMatchObject({ role: 'user' });
    expect(await api.userByEmail('new-3@example.test')).toBeUndefined();
    expect(await api.userByEmail('inv@example.test')).toBeUndefined();
  });

  it('gives declared roles through invites and the operator API', async () => {
    const admin = await api.created('admin-3@example.test', 'admin');
    const invited = await api.call('POST', 'users/invite-user', admin.headers, {
      user_email: 'invited-leader@example.test',
      role: 'leader',
    });
    expect(invited.statusCode, invited.body).toBe(200);
    expect(invited.json()).toMatchObject({ role: 'leader' });
    expect(await api.userByEmail('invited-leader@example.test')).toMatchObject({ role: 'leader' });
    const changed = await api.call('PATCH', 'admin/users', service, {
      email: 'invited-leader@example.test',
      role: 'user',
    });
    expect(changed.json()).toMatchObject({ role: 'user' });
  });

  it('a user never changes their own role; a leader is no operator', async () => {
    const member = await api.created('self@example.test', 'leader');
    const viaEntity = await api.call('PUT', `entities/User/${member.id}`, member.headers, { role: 'admin' });
    expect(viaEntity.statusCode).toBe(403);
    expect(viaEntity.json<{ message: string }>().message).toContain('role');
    const viaMe = await api.call('PUT', 'entities/User/me', member.headers, { role: 'user' });
    expect(viaMe.statusCode).toBe(400);
    expect(viaMe.json<{ message: string }>().message).toContain('role');
    // Onboarding pages send the current role back: accepted.
    expect((await api.call('PUT', 'entities/User/me', member.headers, { role: 'leader' })).statusCode).toBe(
      200,
    );
    expect((await api.call('GET', 'entities/User', member.headers)).json()).toHaveLength(1);
    const logs = await platform.app.inject({ url: `/api/app-logs/${TEST_APP_ID}`, headers: member.headers });
    expect(logs.statusCode).toBe(403);
  });

  it('the only admin cannot demote themself to another declared role', async () => {
    const solo = await rolesApp(['admin', 'leader', 'user'], 'user');
    try {
      const { created, call } = client(solo.app);
      const admin = await created('solo@example.test', 'admin');
      const demoted = await call('PUT', `entities/User/${admin.id}`, admin.headers, { role: 'leader' });
      expect(demoted.statusCode).toBe(403);
      expect(demoted.json<{ message: string }>().message).toContain('only admin');
    } finally {
      await solo.dispose();
    }
  }, 60_000);
});

describe('an app declaring admin|student, default student', () => {
  let platform: TestPlatform;
  let api: ReturnType<typeof client>;

  beforeAll(async () => {
    platform = await rolesApp(['admin', 'student'], 'student');
    api = client(platform.app);
  });

  afterAll(async () => {
    await platform?.dispose();
  });

  it('new users get student: self sign-up, operator creation and invites alike', async () => {
    const registered = await api.call(
      'POST',
      'auth/register',
      {},
      {
        email: 'pupil@example.test',
        password: PASSWORD,
      },
    );
    expect(registered.statusCode, registered.body).toBe(200);
    expect(await api.userByEmail('pupil@example.test')).toMatchObject({ role: 'student' });
    expect((await api.created('pupil-2@example.test')).role).toBe('student');
  });

  it('refuses user, which this app does not declare, and keeps admin as the operator role', async () => {
    const admin = await api.created('teacher@example.test', 'admin');
    const pupil = await api.created('pupil-3@example.test');
    const refused = await api.call('PUT', `entities/User/${pupil.id}`, admin.headers, { role: 'user' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ message: string }>().message).toMatch(/role: .*"admin", "student"/);
    const everyone = (await api.call('GET', 'entities/User', admin.headers)).json<{ email: string }[]>();
    expect(everyone.map((user) => user.email)).toContain('pupil-3@example.test');
  });
});
