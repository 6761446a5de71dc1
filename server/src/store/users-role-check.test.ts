// Migration 11 on PGlite and (with DATABASE_URL, as CI sets it) PostgreSQL: the users table stores any
// declared role name (the service decides which the app has), still bounds its spelling, and an existing
// database under migration 4's `admin|user` check is upgraded with its rows kept.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_ENGINES, type TestDatabase } from '../test-support/open-test-database';
import { runMigrations } from './migrations';
import { createUsersStore, type UsersStore } from './users-store';

const APP = 'roles-app';

describe.each(TEST_ENGINES)('users.role after migration 11 on %s', (name) => {
  let engine: TestDatabase;
  let users: UsersStore;

  beforeAll(async () => {
    engine = await openTestDatabase({ engine: name, name: 'roles' });
    await engine.db.query('INSERT INTO apps (id) VALUES ($1)', [APP]);
    users = createUsersStore(engine.db);
  });

  afterAll(async () => {
    await engine?.close();
  });

  const insert = (role: string) =>
    users.insert({
      id: randomUUID(),
      appId: APP,
      email: `${randomUUID()}@example.test`,
      fullName: 'Someone',
      role,
      isVerified: true,
      approved: true,
      passwordHash: null,
    });

  it('stores declared role names and changes one to another', async () => {
    for (const role of [
      'leader',
      'pastor',
      'student',
      'user',
      'admin',
      'Team_Lead-2',
      `r${'x'.repeat(31)}`,
    ]) {
      expect((await insert(role)).role).toBe(role);
    }
    const student = await insert('student');
    const leader = await users.update(APP, student.id, { role: 'leader' });
    expect(leader).toMatchObject({ role: 'leader', token_version: student.token_version + 1 });
  });

  it('still refuses what is not a role name', async () => {
    for (const role of ['', 'has space', '1st', 'drop;table', `r${'x'.repeat(32)}`, 'rôle']) {
      await expect(insert(role), JSON.stringify(role)).rejects.toThrow(/users_role_check/);
    }
  });

  it('upgrades a database that had migration 4’s admin|user check, keeping its users', async () => {
    // Back to the state before migration 11 (its check and its record), with users stored under it.
    await engine.db.query(`DELETE FROM users WHERE role NOT IN ('admin', 'user')`);
    await engine.db.query('ALTER TABLE users DROP CONSTRAINT users_role_check');
    await engine.db.query(
      `ALTER TABLE users ADD CONSTRAINT users_role_check CHECK (role IN ('admin', 'user'))`,
    );
    await engine.db.query('DELETE FROM schema_migrations WHERE version = 11');
    const before = [await insert('admin'), await insert('user')];
    await expect(insert('leader')).rejects.toThrow(/users_role_check/);

    expect(await runMigrations(engine.db)).toEqual(['11 users role: any role name']);
    for (const user of before) expect((await users.findById(APP, user.id))?.role).toBe(user.role);
    expect((await insert('leader')).role).toBe('leader');
  });
});
