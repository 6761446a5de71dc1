import { describe, expect, it } from 'vitest';
import { createTokenSigner } from '../../lib/access-token';
import type { UserChanges, UserRow, UsersStore } from '../../store/users-store';
import { createAccessTokens } from './access-tokens';
import { createIdentityCache, forgettingWrites, IDENTITY_TTL_MS, USER_CHANGED } from './identity-cache';

const row = (changes: Partial<UserRow> = {}): UserRow => ({
  id: 'u1',
  app_id: 'app',
  email: 'u1@example.com',
  full_name: 'U',
  role: 'user',
  is_verified: true,
  disabled: false,
  approved: true,
  password_hash: null,
  custom: {},
  token_version: 0,
  created_date: new Date(0),
  updated_date: new Date(0),
  ...changes,
});

/** memoryUsers is a users store over one row that counts its reads, as the SQL store would answer. */
function memoryUsers(initial: UserRow) {
  let current: UserRow | null = initial;
  const counter = { reads: 0 };
  const store = {
    findById: async (appId: string, id: string) => {
      counter.reads += 1;
      return current && current.app_id === appId && current.id === id ? { ...current } : null;
    },
    findByIds: async (appId: string, ids: readonly string[]) => {
      counter.reads += 1;
      return current && current.app_id === appId && ids.includes(current.id) ? [{ ...current }] : [];
    },
    findByEmail: async () => current,
    countAdmins: async () => 1,
    insert: async () => current as UserRow,
    update: async (_appId: string, _id: string, changes: UserChanges) => {
      if (!current) return null;
      const bump = changes.role !== undefined || changes.disabled !== undefined || !!changes.passwordHash;
      current = {
        ...current,
        role: changes.role ?? current.role,
        disabled: changes.disabled ?? current.disabled,
        token_version: current.token_version + (bump ? 1 : 0),
      };
      return current;
    },
    clearPendingPassword: async () => undefined,
    remove: async () => {
      const removed = current;
      current = null;
      return removed;
    },
  } satisfies UsersStore;
  return { store, counter };
}

/** bus links fake hubs as Redis links instances: a dispatch runs every other hub's handler. */
function bus() {
  const hubs: Map<string, (payload: unknown) => void>[] = [];
  return () => {
    const handlers = new Map<string, (payload: unknown) => void>();
    hubs.push(handlers);
    return {
      handle: (name: string, handler: (payload: unknown) => void) => void handlers.set(name, handler),
      dispatch: (name: string, payload: unknown) => {
        for (const other of hubs) if (other !== handlers) other.get(name)?.(payload);
      },
    };
  };
}

describe('createIdentityCache', () => {
  it('reads a user once while it is fresh, and again once it is older than the TTL', async () => {
    let clock = 0;
    const cache = createIdentityCache({ now: () => clock });
    const { store, counter } = memoryUsers(row());
    const find = () => cache.find('app', 'u1', () => store.findById('app', 'u1'));
    await find();
    await find();
    expect(counter.reads).toBe(1);
    clock += IDENTITY_TTL_MS + 1;
    await find();
    expect(counter.reads).toBe(2);
  });

  it('bounds how long a row is kept to under a second', () => {
    expect(IDENTITY_TTL_MS).toBeLessThan(1000);
  });

  it('forgets a user on a write through the store, and never keeps a row loaded while it changed', async () => {
    const cache = createIdentityCache();
    const { store, counter } = memoryUsers(row());
    const users = forgettingWrites(store, cache);
    const find = () => cache.find('app', 'u1', () => users.findById('app', 'u1'));
    await find();
    await users.update('app', 'u1', { disabled: true });
    expect((await find())?.disabled).toBe(true);
    // A read that started before a change and ends after it is answered but not kept.
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = cache.find('app', 'u1', async () => {
      const user = await store.findById('app', 'u1');
      await gate;
      return user;
    });
    await users.update('app', 'u1', { role: 'admin' });
    release();
    await slow;
    const reads = counter.reads;
    expect((await find())?.role).toBe('admin');
    expect(counter.reads).toBe(reads + 1);
  });

  it('forgets a user changed on another instance as soon as its message arrives', async () => {
    const link = bus();
    const a = createIdentityCache({ hub: link() });
    const b = createIdentityCache({ hub: link() });
    const { store } = memoryUsers(row());
    const findOnB = () => b.find('app', 'u1', () => store.findById('app', 'u1'));
    expect((await findOnB())?.disabled).toBe(false);
    await forgettingWrites(store, a).update('app', 'u1', { disabled: true });
    expect((await findOnB())?.disabled).toBe(true);
  });

  it('ignores malformed change messages', async () => {
    const handlers = new Map<string, (payload: unknown) => void>();
    createIdentityCache({
      hub: { handle: (name, h) => void handlers.set(name, h), dispatch: () => undefined },
    });
    expect(() => handlers.get(USER_CHANGED)?.({ appId: 1 })).not.toThrow();
    expect(() => handlers.get(USER_CHANGED)?.(null)).not.toThrow();
  });
});

describe('createAccessTokens', () => {
  const signer = createTokenSigner('test-secret-0123456789abcdefghijklmnop', '1h');
  // These checks are of plain tokens: no session is started or read.
  const NO_SESSIONS = {
    start: () => Promise.reject(new Error('no sessions here')),
    live: () => Promise.resolve(new Set<string>()),
    end: () => Promise.resolve(false),
  };

  it('answers repeated checks from memory and refuses a token at once after a disable or role change', async () => {
    const cache = createIdentityCache();
    const { store, counter } = memoryUsers(row());
    const users = forgettingWrites(store, cache);
    const tokens = createAccessTokens({
      users,
      sessions: NO_SESSIONS,
      signer,
      serviceToken: 'service-token-x',
      identities: cache,
    });
    const token = await tokens.issueToken(row());
    const check = () => tokens.check('app', `Bearer ${token}`);
    expect((await check()).status).toBe('user');
    expect((await check()).status).toBe('user');
    expect(counter.reads).toBe(1);
    await users.update('app', 'u1', { disabled: true });
    expect((await check()).status).toBe('invalid');
    const fresh = await tokens.issueToken((await store.findById('app', 'u1')) as UserRow);
    expect((await tokens.check('app', `Bearer ${fresh}`)).status).toBe('inactive');
  });

  it('checks a signature once but the expiry every time, and still refuses forged and other-app tokens', async () => {
    let clock = Date.now();
    let verifies = 0;
    const counting = {
      ...signer,
      verify: (token: string, appId: string) => (verifies++, signer.verify(token, appId)),
    };
    const { store } = memoryUsers(row());
    const tokens = createAccessTokens({
      users: store,
      sessions: NO_SESSIONS,
      signer: counting,
      serviceToken: 'service-token-x',
      now: () => clock,
    });
    const token = await tokens.issueToken(row());
    expect((await tokens.check('app', `Bearer ${token}`)).status).toBe('user');
    expect((await tokens.check('app', `Bearer ${token}`)).status).toBe('user');
    expect(verifies).toBe(1);
    expect((await tokens.check('other', `Bearer ${token}`)).status).toBe('invalid');
    expect((await tokens.check('app', `Bearer ${token.slice(0, -2)}xx`)).status).toBe('invalid');
    // Past its expiry the remembered check no longer counts: the signer decides again.
    clock += 2 * 60 * 60 * 1000;
    const before = verifies;
    await tokens.check('app', `Bearer ${token}`);
    expect(verifies).toBe(before + 1);
  });
});
