import { resolve } from 'node:path';
import { expect, test } from '../../support/test';
import {
  AUTH_ENV,
  createUser,
  failure,
  PASSWORD,
  serviceClient,
  signUp,
  uniqueEmail,
  userClient,
} from '../../support/auth-helpers';
import { entityOf } from '../../support/entities-helpers';
import { startServer, type RunningServer } from '../../support/server-process';

// Roles an app's User.jsonc declares are real (issue 10), through the official SDK against a real server:
// sign-up gets the declared default, an admin gives a declared role and rules compare the stored role,
// an undeclared role is 400 naming `role`, and nobody changes their own role.
const FIXTURES = resolve(import.meta.dirname, '../../fixtures/declared-roles');

let leaders: RunningServer;
let students: RunningServer;

/** startApp runs a server on one of the fixture projects. */
const startApp = (app: 'leaders' | 'students') =>
  startServer({
    env: { ...AUTH_ENV, PROJECT_DIR: resolve(FIXTURES, app, 'base44'), PUBLIC_URL: 'http://127.0.0.1' },
  });

test.beforeAll(async () => {
  [leaders, students] = await Promise.all([startApp('leaders'), startApp('students')]);
});

test.afterAll(async () => {
  expect(await leaders?.stop()).toBe(0);
  expect(await students?.stop()).toBe(0);
});

/** login signs in through the SDK (again after a role change, which voids older tokens). */
async function login(server: RunningServer, email: string) {
  const session = await userClient(server).auth.loginViaEmailPassword(email, PASSWORD);
  return userClient(server, session.access_token);
}

test.describe('an app declaring admin|leader|user, default user', () => {
  test('sign-up gets user; an admin makes them leader; a rule admitting leaders then lets them read', async () => {
    const service = serviceClient(leaders).asServiceRole;
    await entityOf(service, 'Sermon').create({ title: 'On patience' });
    await entityOf(service, 'Notice').bulkCreate([
      { audience: 'leader', text: 'leaders meet at six' },
      { audience: 'user', text: 'welcome' },
    ]);
    const email = uniqueEmail('member');
    const { token, user } = await signUp(leaders, email);
    expect(user.role).toBe('user');
    const member = userClient(leaders, token);
    expect(await entityOf(member, 'Sermon').list()).toEqual([]);
    expect((await entityOf(member, 'Notice').list()).map((notice) => notice.text)).toEqual(['welcome']);

    const admin = await createUser(leaders, { email: uniqueEmail('pastor'), role: 'admin' });
    const adminClient = userClient(leaders, admin.token);
    expect(await entityOf(adminClient, 'User').update(user.id, { role: 'leader' })).toMatchObject({
      id: user.id,
      role: 'leader',
    });

    const leader = await login(leaders, email);
    expect(await leader.auth.me()).toMatchObject({ id: user.id, role: 'leader' });
    expect(await entityOf(leader, 'Sermon').list()).toMatchObject([{ title: 'On patience' }]);
    const notices = await entityOf(leader, 'Notice').list();
    expect(notices.map((notice) => notice.text)).toEqual(['leaders meet at six']);
  });

  test('a role the app does not declare is refused with 400 naming role', async () => {
    const admin = userClient(
      leaders,
      (await createUser(leaders, { email: uniqueEmail('admin'), role: 'admin' })).token,
    );
    const { user } = await signUp(leaders, uniqueEmail('plain'));
    const calls = [
      () => entityOf(admin, 'User').update(user.id, { role: 'pastor' }),
      () => entityOf(serviceClient(leaders).asServiceRole, 'User').update(user.id, { role: 'student' }),
      () => admin.auth.inviteUser(uniqueEmail('invitee'), 'pastor'),
    ];
    for (const call of calls) {
      const refused = await failure(call());
      expect(refused.status).toBe(400);
      expect(refused.message).toContain('role');
    }
    expect(await entityOf(admin, 'User').get(user.id)).toMatchObject({ role: 'user' });
  });

  test('a user cannot change their own role, to a declared role or otherwise', async () => {
    const email = uniqueEmail('climber');
    const { token, user } = await signUp(leaders, email);
    const member = userClient(leaders, token);
    const viaEntity = await failure(entityOf(member, 'User').update(user.id, { role: 'leader' }));
    expect(viaEntity.status).toBe(403);
    expect(viaEntity.message).toContain('role');
    const viaMe = await failure(member.auth.updateMe({ role: 'leader' }));
    expect(viaMe.status).toBe(400);
    expect(viaMe.message).toContain('role');
    // Onboarding pages send the current role back with their changes: accepted.
    expect(await member.auth.updateMe({ role: 'user', is_leader: false })).toMatchObject({ role: 'user' });
    expect(await member.auth.me()).toMatchObject({ role: 'user' });
  });
});

test.describe('an app declaring admin|student, default student', () => {
  test('sign-up gets student, invites give declared roles, and user is not one of them', async () => {
    const { user } = await signUp(students, uniqueEmail('pupil'));
    expect(user.role).toBe('student');
    const service = serviceClient(students).asServiceRole;
    await entityOf(service, 'Lesson').create({ title: 'Fractions' });
    const pupil = await login(students, user.email);
    expect(await entityOf(pupil, 'Lesson').list()).toMatchObject([{ title: 'Fractions' }]);

    const admin = userClient(
      students,
      (await createUser(students, { email: uniqueEmail('teacher'), role: 'admin' })).token,
    );
    const refused = await failure(entityOf(admin, 'User').update(user.id, { role: 'user' }));
    expect(refused.status).toBe(400);
    expect(refused.message).toContain('role');
    const invitee = uniqueEmail('invited');
    await admin.auth.inviteUser(invitee, 'student');
    const invited = await entityOf(admin, 'User').filter({ email: invitee });
    expect(invited).toMatchObject([{ email: invitee, role: 'student' }]);
  });
});
