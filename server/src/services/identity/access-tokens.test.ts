import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTokenSigner } from '../../lib/access-token';
import { createSignInSessionsStore, MAX_SESSIONS_PER_USER } from '../../store/sign-in-sessions-store';
import type { UserRow, UsersStore } from '../../store/users-store';
import { openTestDatabase, type TestDatabase } from '../../test-support/open-test-database';
import { createAccessTokens, SESSION_HOURS } from './access-tokens';
import { createIdentityCache } from './identity-cache';

const SERVICE_TOKEN = 'service-token-0123456789abcdefghijklmnopqrstuvwxyz';

function user(tokenVersion: number): UserRow {
  const now = new Date();
  return {
    ...{ id: 'u1', app_id: 'app', email: 'a@example.test', full_name: 'A', role: 'user' },
    ...{ is_verified: true, disabled: false, approved: true, password_hash: null, custom: {} },
    ...{ token_version: tokenVersion, created_date: now, updated_date: now },
  };
}

// The clock is faked (Date only) so that the signature check's expiry moves with it: a remembered token is
// never verified again, so its remembered expiry and the user row are what must still be read each time.
beforeEach(() => vi.useFakeTimers({ toFake: ['Date'] }));
afterEach(() => vi.useRealTimers());

// Sign-in sessions are rows of a real database (the tokens' one stateful part).
let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase({ engine: 'pglite' });
});
afterAll(() => database.close());

function setUp() {
  let row = user(0);
  const signer = createTokenSigner('s'.repeat(40), '1h');
  const reads = { byIds: 0 };
  const users = {
    findById: async (_app: string, id: string) => (id === row.id ? row : null),
    findByIds: async (_app: string, ids: readonly string[]) => {
      reads.byIds += 1;
      return ids.includes(row.id) ? [row] : [];
    },
  } as unknown as UsersStore;
  const tokens = createAccessTokens({
    users,
    sessions: createSignInSessionsStore(database.db),
    signer,
    serviceToken: SERVICE_TOKEN,
    // No identity cache lifetime: each check reads the row, as after an invalidation.
    identities: createIdentityCache({ ttlMs: 0 }),
  });
  return {
    tokens,
    signer,
    advance: (ms: number) => vi.setSystemTime(Date.now() + ms),
    bumpVersion: () => (row = user(row.token_version + 1)),
    disable: () => (row = { ...row, disabled: true }),
    reads,
  };
}

describe('access tokens', () => {
  it('take the configured service token, and nothing of another length', async () => {
    const { tokens } = setUp();
    expect(await tokens.check('app', `Bearer ${SERVICE_TOKEN}`)).toEqual({ status: 'service' });
    expect(await tokens.check('app', `Bearer ${SERVICE_TOKEN}x`)).toEqual({ status: 'invalid' });
  });

  it('take a minted service token until it expires, also once remembered', async () => {
    const { tokens, advance } = setUp();
    const { token: minted } = await tokens.mintCallToken('app', 60);
    const service = { status: 'service', functionCall: true };
    expect(await tokens.check('app', `Bearer ${minted}`)).toEqual(service);
    expect(await tokens.check('app', `Bearer ${minted}`)).toEqual(service);
    expect(await tokens.check('other', `Bearer ${minted}`)).toEqual({ status: 'invalid' });
    advance(61_000);
    expect(await tokens.check('app', `Bearer ${minted}`)).toEqual({ status: 'invalid' });
  });

  it('end a call token with its call, also once remembered, and no other call token', async () => {
    const { tokens } = setUp();
    const first = await tokens.mintCallToken('app', 60);
    const second = await tokens.mintCallToken('app', 60);
    expect((await tokens.check('app', `Bearer ${first.token}`)).status).toBe('service');
    first.end();
    expect(await tokens.check('app', `Bearer ${first.token}`)).toEqual({ status: 'invalid' });
    expect((await tokens.check('app', `Bearer ${second.token}`)).status).toBe('service');
  });

  it('void a remembered user token when its version moves on', async () => {
    const { tokens, bumpVersion } = setUp();
    const token = tokens.issueToken(user(0));
    expect((await tokens.check('app', `Bearer ${await token}`)).status).toBe('user');
    expect((await tokens.check('app', `Bearer ${await token}`)).status).toBe('user');
    bumpVersion();
    expect(await tokens.check('app', `Bearer ${await token}`)).toEqual({ status: 'invalid' });
  });

  it('check many tokens as check does each, reading their users in one query', async () => {
    const { tokens, signer, bumpVersion, disable, reads } = setUp();
    const current = await tokens.issueToken(user(0));
    const call = await tokens.mintCallToken('app', 60);
    const stranger = await signer.mint({ userId: 'nobody', appId: 'app', tokenVersion: 0 });
    const all = [current, SERVICE_TOKEN, call.token, stranger, 'garbage', 'null'];
    const answer = async () => {
      const many = await tokens.checkMany('app', all);
      for (const token of all) expect(many.get(token)).toEqual(await tokens.check('app', `Bearer ${token}`));
      return many;
    };
    expect((await answer()).get(current)?.status).toBe('user');
    expect(reads.byIds).toBe(1);
    disable();
    expect((await answer()).get(current)?.status).toBe('inactive');
    bumpVersion();
    expect((await answer()).get(current)).toEqual({ status: 'invalid' });
    call.end();
    expect((await answer()).get(call.token)).toEqual({ status: 'invalid' });
  });

  it('take a session token until its session ends, on any check, and leave plain tokens alone', async () => {
    const { tokens } = setUp();
    const session = await tokens.startSession(user(0));
    const other = await tokens.startSession(user(0));
    const plain = await tokens.issueToken(user(0));
    expect((await tokens.check('app', `Bearer ${session}`)).status).toBe('user');
    expect(await tokens.endSession('app', `Bearer ${session}`)).toBe('ended');
    expect(await tokens.check('app', `Bearer ${session}`)).toEqual({ status: 'invalid' });
    const many = await tokens.checkMany('app', [session, other, plain]);
    expect([session, other, plain].map((token) => many.get(token)?.status)).toEqual([
      'invalid',
      'user',
      'user',
    ]);
    expect(await tokens.endSession('app', `Bearer ${plain}`)).toBe('no-session');
    expect(await tokens.endSession('app', undefined)).toBe('no-session');
    expect((await tokens.check('app', `Bearer ${other}`)).status).toBe('user');
  });

  it('refuse a session token whose session was never stored, and one of another app', async () => {
    const { tokens, signer } = setUp();
    const claims = { userId: 'u1', appId: 'app', tokenVersion: 0, sessionId: 'never-started-session-id' };
    const unknown = await signer.mint(claims, '1h');
    expect(await tokens.check('app', `Bearer ${unknown}`)).toEqual({ status: 'invalid' });
    expect((await tokens.checkMany('app', [unknown])).get(unknown)).toEqual({ status: 'invalid' });
    const elsewhere = await tokens.startSession({ ...user(0), app_id: 'other' });
    expect(await tokens.check('app', `Bearer ${elsewhere}`)).toEqual({ status: 'invalid' });
  });

  it('end a session token at its expiry, and still at a version bump before it', async () => {
    const { tokens, advance, bumpVersion } = setUp();
    const session = await tokens.startSession(user(0));
    advance(SESSION_HOURS * 3_600_000 + 1000);
    expect(await tokens.check('app', `Bearer ${session}`)).toEqual({ status: 'invalid' });
    vi.useRealTimers();
    const fresh = await tokens.startSession(user(0));
    bumpVersion();
    expect(await tokens.check('app', `Bearer ${fresh}`)).toEqual({ status: 'invalid' });
  });

  it("end a user's oldest session when a new one passes MAX_SESSIONS_PER_USER", async () => {
    vi.useRealTimers();
    const { tokens } = setUp();
    const person = { ...user(0), id: 'u1', app_id: 'capped' };
    const started: string[] = [];
    for (let i = 0; i <= MAX_SESSIONS_PER_USER; i += 1) {
      started.push(await tokens.startSession(person));
      // created_at orders them: a millisecond apart.
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const checks = await tokens.checkMany('capped', started);
    expect(checks.get(started[0] ?? '')).toEqual({ status: 'invalid' });
    expect(started.slice(1).filter((token) => checks.get(token)?.status !== 'invalid')).toHaveLength(
      MAX_SESSIONS_PER_USER,
    );
  });
});
