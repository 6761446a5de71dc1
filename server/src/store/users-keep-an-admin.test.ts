// The users store keeps an app's last enabled admin when asked (keepAnAdmin, and remove's keepLastAdmin),
// deciding on the rows as they are when it writes: on PostgreSQL two admins demoting each other at once
// cannot both pass.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_ENGINES, type TestDatabase } from '../test-support/open-test-database';
import { createUsersStore, type UsersStore } from './users-store';

describe.each(TEST_ENGINES)('keeping an enabled admin on %s', (name) => {
  let engine: TestDatabase;
  let users: UsersStore;

  beforeAll(async () => {
    engine = await openTestDatabase({ engine: name, name: 'keep-admin' });
    users = createUsersStore(engine.db);
  });

  afterAll(async () => {
    await engine?.close();
  });

  async function newApp(...roles: { role: string; disabled?: boolean }[]) {
    const appId = `keep-${randomUUID()}`;
    await engine.db.query('INSERT INTO apps (id) VALUES ($1)', [appId]);
    const ids: string[] = [];
    for (const { role, disabled } of roles) {
      const id = randomUUID();
      await users.insert({
        id,
        appId,
        email: `${id}@example.test`,
        fullName: 'Someone',
        role,
        isVerified: true,
        approved: true,
        passwordHash: null,
      });
      if (disabled) await users.update(appId, id, { disabled: true });
      ids.push(id);
    }
    return { appId, ids };
  }

  it('refuses to demote or disable the only enabled admin, and allows it without keepAnAdmin', async () => {
    const { appId, ids } = await newApp(
      { role: 'admin' },
      { role: 'admin', disabled: true },
      { role: 'user' },
    );
    const [admin = '', disabledAdmin = '', user = ''] = ids;
    expect(await users.update(appId, admin, { role: 'user', keepAnAdmin: true })).toBeNull();
    expect(await users.update(appId, admin, { disabled: true, keepAnAdmin: true })).toBeNull();
    // Other changes to that admin, and changes to anyone else, pass.
    expect(await users.update(appId, admin, { fullName: 'Still admin', keepAnAdmin: true })).toMatchObject({
      role: 'admin',
    });
    expect(await users.update(appId, disabledAdmin, { role: 'user', keepAnAdmin: true })).not.toBeNull();
    expect(await users.update(appId, user, { role: 'admin', keepAnAdmin: true })).not.toBeNull();
    // Now another enabled admin exists: the first may go.
    expect(await users.update(appId, admin, { role: 'user', keepAnAdmin: true })).toMatchObject({
      role: 'user',
    });
    expect(await users.countAdmins(appId)).toBe(1);
    // The service role's way (no keepAnAdmin) may demote the last one.
    expect(await users.update(appId, user, { role: 'user' })).toMatchObject({ role: 'user' });
  });

  it('remove keeps the last enabled admin even when a disabled admin remains', async () => {
    const { appId, ids } = await newApp({ role: 'admin' }, { role: 'admin', disabled: true });
    const [admin = '', disabledAdmin = ''] = ids;
    expect(await users.remove(appId, admin, true)).toBeNull();
    expect(await users.remove(appId, disabledAdmin, true)).not.toBeNull();
    expect(await users.remove(appId, admin, false)).not.toBeNull();
  });

  it('two admins demoting each other at once: one passes, one enabled admin remains', async () => {
    const { appId, ids } = await newApp({ role: 'admin' }, { role: 'admin' });
    const [first = '', second = ''] = ids;
    let secondResult: Promise<unknown> = Promise.resolve();
    await engine.db.transaction(async (tx) => {
      expect(
        await createUsersStore(tx).update(appId, first, { role: 'user', keepAnAdmin: true }),
      ).not.toBeNull();
      // Sent while the first is not committed: on PostgreSQL it waits for it, then sees the first demoted.
      secondResult = users.update(appId, second, { role: 'user', keepAnAdmin: true });
      await new Promise((wait) => setTimeout(wait, 150));
    });
    expect(await secondResult).toBeNull();
    expect(await users.countAdmins(appId)).toBe(1);
  });
});
