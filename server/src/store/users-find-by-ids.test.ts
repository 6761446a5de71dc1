// findByIds on PGlite and (with DATABASE_URL) PostgreSQL: realtime re-validates many sockets' users with it.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_ENGINES, type TestDatabase } from '../test-support/open-test-database';
import { createUsersStore, type UsersStore } from './users-store';

describe.each(TEST_ENGINES)('users.findByIds on %s', (name) => {
  let engine: TestDatabase;
  let users: UsersStore;

  beforeAll(async () => {
    engine = await openTestDatabase({ engine: name, name: 'find-by-ids' });
    await engine.db.query("INSERT INTO apps (id) VALUES ('app-a'), ('app-b')");
    users = createUsersStore(engine.db);
  });

  afterAll(async () => {
    await engine?.close();
  });

  const insert = (appId: string) =>
    users.insert({
      id: randomUUID(),
      appId,
      email: `${randomUUID()}@example.test`,
      fullName: 'Someone',
      role: 'user',
      isVerified: true,
      approved: true,
      passwordHash: null,
    });

  it("reads the app's users among the ids in one call, leaving out unknown ids and other apps' users", async () => {
    const [first, second, elsewhere] = [await insert('app-a'), await insert('app-a'), await insert('app-b')];
    const found = await users.findByIds('app-a', [first.id, second.id, elsewhere.id, 'nobody']);
    expect(found.map((user) => user.id).sort()).toEqual([first.id, second.id].sort());
    expect(found.find((user) => user.id === first.id)).toEqual(first);
    expect(await users.findByIds('app-a', [])).toEqual([]);
  });

  it('refuses more than 1,000 ids at once', async () => {
    const ids = Array.from({ length: 1_001 }, (_, index) => `id-${index}`);
    await expect(users.findByIds('app-a', ids)).rejects.toThrow(/at most 1000/);
  });
});
