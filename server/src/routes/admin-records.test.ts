// The console's record writes: the entities service's own create, update and delete (the same validation
// errors as the entity routes), each in the audit log with the fields before and after; admins and the
// service role only, bodies and ids bounded.
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_APP_ID, TEST_SERVICE_TOKEN, useTestPlatform } from '../test-support/build-test-platform';

const NOTE = {
  name: 'Note',
  type: 'object',
  properties: { title: { type: 'string', maxLength: 20 }, body: { type: 'string' } },
  required: ['title'],
};

const test = useTestPlatform({}, { entities: { 'note.jsonc': NOTE } });
const base = `/api/apps/${TEST_APP_ID}`;
const records = `${base}/admin/entities/Note/records`;
const PASSWORD = 'correct horse battery';
const tokens = { admin: '', member: '' };
const bearer = (token?: string) => (token ? { authorization: `Bearer ${token}` } : {});

async function tokenOf(email: string, role: 'admin' | 'user') {
  const created = await test.app.inject({
    method: 'POST',
    url: `${base}/admin/users`,
    headers: bearer(TEST_SERVICE_TOKEN),
    payload: { email, password: PASSWORD, role },
  });
  expect(created.statusCode).toBe(201);
  const login = await test.app.inject({
    method: 'POST',
    url: `${base}/auth/login`,
    payload: { email, password: PASSWORD },
  });
  return login.json<{ access_token: string }>().access_token;
}

async function auditRows(target: string) {
  const answer = await test.app.inject({
    url: `${base}/admin/audit-log?limit=500`,
    headers: bearer(TEST_SERVICE_TOKEN),
  });
  const items = answer.json<{
    items: { action: string; target: string; actor: object; before: unknown; after: unknown }[];
  }>().items;
  return items.filter((row) => row.target === target).reverse();
}

beforeAll(async () => {
  tokens.admin = await tokenOf('boss@records.test', 'admin');
  tokens.member = await tokenOf('member@records.test', 'user');
});

describe('the console record routes', () => {
  it('create, edit and delete as the admin, each audited with before and after', async () => {
    const created = await test.app.inject({
      method: 'POST',
      url: records,
      headers: bearer(tokens.admin),
      payload: { title: 'first', body: 'text' },
    });
    expect(created.statusCode).toBe(201);
    const { id, created_by } = created.json<{ id: string; created_by: string }>();
    expect(created_by).toBe('boss@records.test');

    const edited = await test.app.inject({
      method: 'PUT',
      url: `${records}/${id}`,
      headers: bearer(tokens.admin),
      payload: { title: 'second' },
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ title: 'second', body: 'text' });

    const deleted = await test.app.inject({
      method: 'DELETE',
      url: records,
      headers: bearer(tokens.admin),
      payload: { ids: [id] },
    });
    expect(deleted.json()).toEqual({ deleted: 1 });

    const actor = { kind: 'admin', email: 'boss@records.test' };
    expect(await auditRows(`record:Note/${id}`)).toEqual([
      expect.objectContaining({
        action: 'record.create',
        actor: expect.objectContaining(actor),
        after: { title: 'first', body: 'text' },
      }),
      expect.objectContaining({
        action: 'record.update',
        before: { title: 'first' },
        after: { title: 'second' },
      }),
      expect.objectContaining({ action: 'record.delete', before: { ids: [id] }, after: { deleted: 1 } }),
    ]);
  });

  it('answers validation errors as the entity routes do, and audits nothing refused', async () => {
    const tooLong = await test.app.inject({
      method: 'POST',
      url: records,
      headers: bearer(tokens.admin),
      payload: { title: 'x'.repeat(21) },
    });
    expect(tooLong.statusCode).toBe(422);
    expect(tooLong.json<{ message: string }>().message).toContain('title');
    const notObject = await test.app.inject({
      method: 'POST',
      url: records,
      headers: { ...bearer(tokens.admin), 'content-type': 'application/json' },
      payload: '[1]',
    });
    expect(notObject.statusCode).toBe(422);
    const missing = await test.app.inject({
      method: 'PUT',
      url: `${records}/no-such-id`,
      headers: bearer(tokens.admin),
      payload: { title: 'x' },
    });
    expect(missing.statusCode).toBe(404);
    expect(await auditRows('record:Note/no-such-id')).toEqual([]);
  });

  it("the entity import route audits an operator's import with its count; a user's is not; a bad file neither", async () => {
    const upload = (csv: string, token = tokens.admin) => {
      const boundary = 'review-boundary';
      const payload = [
        `--${boundary}`,
        'Content-Disposition: form-data; name="file"; filename="notes.csv"',
        'Content-Type: text/csv',
        '',
        csv,
        `--${boundary}--`,
        '',
      ].join('\r\n');
      return test.app.inject({
        method: 'POST',
        url: `${base}/entities/Note/import`,
        headers: { ...bearer(token), 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
    };
    const refused = await upload(`title,body\n${'x'.repeat(21)},no`);
    expect(refused.statusCode).toBe(422);
    expect(await auditRows('records:Note')).toEqual([]);
    const imported = await upload('title,body\nimported one,a\nimported two,b');
    expect(imported.statusCode).toBe(201);
    const byAdmin = {
      action: 'record.import',
      actor: { kind: 'admin', id: expect.any(String), email: 'boss@records.test' },
      after: { imported: 2, file: 'notes.csv' },
    };
    expect(await auditRows('records:Note')).toEqual([expect.objectContaining(byAdmin)]);
    // A user may import where the rules let them create; that is the app's own traffic, not audited.
    expect((await upload('title\nby a member', tokens.member)).statusCode).toBe(201);
    expect((await upload('title\nby the service role', TEST_SERVICE_TOKEN)).statusCode).toBe(201);
    expect(await auditRows('records:Note')).toEqual([
      expect.objectContaining(byAdmin),
      expect.objectContaining({
        action: 'record.import',
        actor: { kind: 'service', via: 'api' },
        after: { imported: 1, file: 'notes.csv' },
      }),
    ]);
  });

  it('bounds the delete: ids required, at most 1,000, each at most 128 characters', async () => {
    for (const payload of [
      {},
      { ids: [] },
      { ids: Array.from({ length: 1001 }, (_, i) => `id${i}`) },
      { ids: ['x'.repeat(129)] },
    ]) {
      const response = await test.app.inject({
        method: 'DELETE',
        url: records,
        headers: bearer(tokens.admin),
        payload,
      });
      expect(response.statusCode, JSON.stringify(payload).slice(0, 40)).toBe(400);
    }
  });

  it('refuses a plain user (403) and no token (401) on every route', async () => {
    for (const token of [tokens.member, undefined]) {
      const expected = token ? 403 : 401;
      const answers = await Promise.all([
        test.app.inject({ method: 'POST', url: records, headers: bearer(token), payload: { title: 'x' } }),
        test.app.inject({
          method: 'PUT',
          url: `${records}/a`,
          headers: bearer(token),
          payload: { title: 'x' },
        }),
        test.app.inject({ method: 'DELETE', url: records, headers: bearer(token), payload: { ids: ['a'] } }),
      ]);
      expect(answers.map((answer) => answer.statusCode)).toEqual([expected, expected, expected]);
    }
  });
});
