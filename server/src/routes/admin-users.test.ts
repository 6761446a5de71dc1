// The console's user changes (PATCH /admin/users/:id, invite, password-reset, fields): admins and the service
// role only, bodies validated (User.jsonc's custom fields by the same validation as every user update), the
// last active admin kept, an admin never disabling themself, and every change in the audit log.
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_APP_ID, TEST_SERVICE_TOKEN, useTestPlatform } from '../test-support/build-test-platform';

const USER_ENTITY = {
  name: 'User',
  type: 'object',
  properties: {
    role: { type: 'string', enum: ['admin', 'leader', 'user'], default: 'user' },
    nickname: { type: 'string', maxLength: 10 },
    points: { type: 'integer', minimum: 0 },
  },
};
const test = useTestPlatform(
  { PUBLIC_URL: 'http://console.test' },
  { entities: { 'User.jsonc': USER_ENTITY } },
);
const PASSWORD = 'correct horse battery';
const BASE = `/api/apps/${TEST_APP_ID}/admin/users`;
const people = { admin: { id: '', token: '' }, user: { id: '', token: '' } };

async function makeUser(email: string, role: string) {
  const created = await test.app.inject({
    method: 'POST',
    url: BASE,
    headers: { authorization: `Bearer ${TEST_SERVICE_TOKEN}` },
    payload: { email, password: PASSWORD, role },
  });
  expect(created.statusCode).toBe(201);
  return { id: created.json<{ id: string }>().id, token: await login(email) };
}

async function login(email: string) {
  const response = await test.app.inject({
    method: 'POST',
    url: `/api/apps/${TEST_APP_ID}/auth/login`,
    payload: { email, password: PASSWORD },
  });
  return response.json<{ access_token: string }>().access_token;
}

const call = (method: 'GET' | 'POST' | 'PATCH', path: string, token?: string, payload?: object) =>
  test.app.inject({
    method,
    url: `${BASE}${path}`,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(payload ? { payload } : {}),
  });

const messageOf = (response: { json: <T>() => T }) => response.json<{ message: string }>().message;

async function auditRows(target: string) {
  const response = await test.app.inject({
    url: `/api/apps/${TEST_APP_ID}/admin/audit-log`,
    headers: { authorization: `Bearer ${TEST_SERVICE_TOKEN}` },
  });
  type Row = { action: string; target: string; before: unknown; after: unknown; actor: { email?: string } };
  return response.json<{ items: Row[] }>().items.filter((row) => row.target === target);
}

async function mailsTo(email: string): Promise<string[]> {
  const dir = join(test.platform.config.DATA_DIR, 'outbox');
  const files = await readdir(dir).catch(() => []);
  const texts = await Promise.all(files.map((file) => readFile(join(dir, file), 'utf8')));
  return texts.filter((text) => text.includes(`To: ${email}`));
}

beforeAll(async () => {
  people.admin = await makeUser('boss@users.test', 'admin');
  people.user = await makeUser('member@users.test', 'user');
});

describe('who may call the console user endpoints', () => {
  const calls = (): ['GET' | 'POST' | 'PATCH', string, object | undefined][] => [
    ['GET', '/fields', undefined],
    ['POST', '/invite', { user_email: 'x@users.test', role: 'user' }],
    ['PATCH', `/${people.user.id}`, { role: 'leader' }],
    ['POST', `/${people.admin.id}/password-reset`, undefined],
  ];

  it('refuses a plain user (403) and no token (401), changing nothing', async () => {
    for (const [method, path, payload] of calls()) {
      expect((await call(method, path, people.user.token, payload)).statusCode, path).toBe(403);
      expect((await call(method, path, undefined, payload)).statusCode, path).toBe(401);
    }
    // Only the creation this file made: no refused call was recorded.
    expect((await auditRows('user:member@users.test')).map((row) => row.action)).toEqual(['user.create']);
  });

  it('answers the roles and the custom fields of User.jsonc to an admin', async () => {
    const response = await call('GET', '/fields', people.admin.token);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      roles: ['admin', 'leader', 'user'],
      default_role: 'user',
      fields: [
        { name: 'nickname', type: 'string', required: false, maxLength: 10 },
        { name: 'points', type: 'integer', required: false, minimum: 0 },
      ],
    });
  });
});

describe('PATCH /admin/users/:id', () => {
  it('changes role, custom fields and status, audited with before and after', async () => {
    const response = await call('PATCH', `/${people.user.id}`, people.admin.token, {
      role: 'leader',
      data: { nickname: 'Mo', points: 3 },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ role: 'leader', nickname: 'Mo', points: 3, disabled: false });
    const [row] = await auditRows('user:member@users.test');
    expect(row).toMatchObject({
      action: 'user.update',
      actor: { email: 'boss@users.test' },
      before: { role: 'user', disabled: false, data: { nickname: null, points: null } },
      after: { role: 'leader', disabled: false, data: { nickname: 'Mo', points: 3 } },
    });
    const disabled = await call('PATCH', `/${people.user.id}`, TEST_SERVICE_TOKEN, { disabled: true });
    expect(disabled.json()).toMatchObject({ disabled: true });
    expect(
      (await call('PATCH', `/${people.user.id}`, TEST_SERVICE_TOKEN, { disabled: false })).statusCode,
    ).toBe(200);
  });

  it('answers 400 naming the field for bad bodies, with the schema validation of user updates', async () => {
    const cases: [object, string][] = [
      [{ role: 'pastor' }, "role: must be one of this app's roles"],
      [{ data: { points: -1 } }, 'points'],
      [{ data: { nickname: 'far too long a nickname' } }, 'nickname'],
      [{ data: { email: 'a@b.c' } }, 'email: cannot be changed here'],
      [{ data: { role: 'admin' } }, 'data: must not hold role or disabled'],
      [{ disabled: 'yes' }, 'disabled: must be true or false'],
      [{ password: 'x' }, 'only role, disabled and data may be changed'],
      [{}, 'give role, disabled or data'],
    ];
    for (const [payload, message] of cases) {
      const response = await call('PATCH', `/${people.user.id}`, people.admin.token, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(messageOf(response)).toContain(message);
    }
  });

  it('answers 404 for an unknown user', async () => {
    expect((await call('PATCH', '/no-such-user', people.admin.token, { disabled: true })).statusCode).toBe(
      404,
    );
  });

  it('keeps the last active admin and refuses an admin disabling themself', async () => {
    const self = await call('PATCH', `/${people.admin.id}`, people.admin.token, { disabled: true });
    expect(self.statusCode).toBe(403);
    expect(messageOf(self)).toBe('You cannot disable yourself: another admin must do it');
    for (const payload of [{ disabled: true }, { role: 'user' }]) {
      const last = await call('PATCH', `/${people.admin.id}`, TEST_SERVICE_TOKEN, payload);
      expect(last.statusCode, JSON.stringify(payload)).toBe(409);
      expect(messageOf(last)).toContain("boss@users.test is the app's only active admin");
    }
    const invited = await call('POST', '/invite', TEST_SERVICE_TOKEN, {
      user_email: 'boss@users.test',
      role: 'user',
    });
    expect(invited.statusCode).toBe(409);
    // With a second admin, the first may be demoted (by the other).
    const second = await makeUser('second@users.test', 'admin');
    const demoted = await call('PATCH', `/${people.admin.id}`, second.token, { role: 'leader' });
    expect(demoted.statusCode).toBe(200);
    expect((await call('PATCH', `/${people.admin.id}`, second.token, { role: 'admin' })).statusCode).toBe(
      200,
    );
    // A role change ends the user's sessions (token_version): the admin signs in again.
    people.admin.token = await login('boss@users.test');
  });
});

describe('invite and password reset', () => {
  it('invites with a declared role through the SDK invite flow (its mail), audited', async () => {
    const response = await call('POST', '/invite', people.admin.token, {
      user_email: 'Guest@Users.test',
      role: 'leader',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, user_email: 'guest@users.test', role: 'leader' });
    const [mail] = await mailsTo('guest@users.test');
    expect(mail).toContain(`You are invited to ${TEST_APP_ID}`);
    const [row] = await auditRows('user:guest@users.test');
    expect(row).toMatchObject({ action: 'user.invite', before: null, after: { role: 'leader' } });
    const bad = await call('POST', '/invite', people.admin.token, { user_email: 'nope', role: 'user' });
    expect(bad.statusCode).toBe(400);
    expect(messageOf(bad)).toContain('user_email: must be a valid email address');
  });

  it('mails a reset link (never sets a password), audited without the link; a disabled user gets 400', async () => {
    const response = await call('POST', `/${people.user.id}/password-reset`, people.admin.token);
    expect(response.statusCode).toBe(200);
    const mails = await mailsTo('member@users.test');
    expect(mails.join('\n')).toContain('An admin of');
    const [row] = await auditRows('user:member@users.test');
    expect(row).toMatchObject({ action: 'user.password_reset', after: { reset_mailed: true } });
    expect(JSON.stringify(row)).not.toContain('reset_token');
    await call('PATCH', `/${people.user.id}`, TEST_SERVICE_TOKEN, { disabled: true });
    const refused = await call('POST', `/${people.user.id}/password-reset`, people.admin.token);
    expect(refused.statusCode).toBe(400);
    expect(messageOf(refused)).toContain('The user is disabled');
  });
});
