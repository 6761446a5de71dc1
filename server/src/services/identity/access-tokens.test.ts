import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTokenSigner } from '../../lib/access-token';
import type { UserRow, UsersStore } from '../../store/users-store';
import { createAccessTokens } from './access-tokens';
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
});
