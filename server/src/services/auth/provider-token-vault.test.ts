import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConflictError, UnauthorizedError } from '../../lib/errors';
import type { ProviderTokensStore } from '../../store/provider-tokens-store';
import type { ProviderProtocol, ProviderTokens } from './provider-protocol';
import type { ProviderProtocols } from './provider-protocols';
import { createProviderTokenVault } from './provider-token-vault';

const NOW_SECONDS = 1_800_000_000;

function setUp(refresh: (token: string) => Promise<ProviderTokens>) {
  const rows = new Map<string, { provider: string; sealed: string; expiresAt: Date | null }>();
  const store: ProviderTokensStore = {
    async put(userId, provider, sealed, expiresAt) {
      rows.set(userId, { provider, sealed, expiresAt });
    },
    async latest(userId) {
      return rows.get(userId) ?? null;
    },
  };
  let refreshes = 0;
  const protocol: ProviderProtocol = {
    authorizationUrl: () => Promise.reject(new Error('not used')),
    exchange: () => Promise.reject(new Error('not used')),
    refresh: (token) => {
      refreshes += 1;
      return refresh(token);
    },
  };
  const protocols: ProviderProtocols = {
    serves: (provider): provider is 'sso' => provider === 'sso',
    protocolFor: async () => protocol,
  };
  const vault = createProviderTokenVault({
    key: randomBytes(32),
    store,
    protocols,
    now: () => NOW_SECONDS * 1000,
  });
  return { vault, rows, refreshes: () => refreshes };
}

describe('provider token vault', () => {
  it('stores tokens sealed and hands a fresh access token out as stored', async () => {
    const { vault, rows, refreshes } = setUp(() => Promise.reject(new Error('no refresh expected')));
    await vault.save('app', 'u1', 'sso', { accessToken: 'at-1', expiresAt: NOW_SECONDS + 3600 });
    expect(rows.get('u1')?.sealed).not.toContain('at-1');
    expect(rows.get('u1')?.expiresAt?.getTime()).toBe((NOW_SECONDS + 3600) * 1000);
    expect(await vault.accessToken('app', 'u1')).toBe('at-1');
    expect(await vault.accessToken('app', 'nobody')).toBeNull();
    expect(refreshes()).toBe(0);
  });

  it('refuses sealed tokens moved to another user', async () => {
    const { vault, rows } = setUp(() => Promise.reject(new Error('no refresh expected')));
    await vault.save('app', 'u1', 'sso', { accessToken: 'at-1' });
    const moved = rows.get('u1');
    if (moved) rows.set('u2', moved);
    await expect(vault.accessToken('app', 'u2')).rejects.toThrow();
  });

  it('refreshes an expiring token once for concurrent readers, keeping the refresh token', async () => {
    const { vault, refreshes } = setUp(async () => ({ accessToken: 'at-2', expiresAt: NOW_SECONDS + 3600 }));
    await vault.save('app', 'u1', 'sso', {
      accessToken: 'at-1',
      refreshToken: 'rt-1',
      expiresAt: NOW_SECONDS + 30,
    });
    const tokens = await Promise.all([vault.accessToken('app', 'u1'), vault.accessToken('app', 'u1')]);
    expect(tokens).toEqual(['at-2', 'at-2']);
    expect(refreshes()).toBe(1);
    // Stored: the next read needs no refresh.
    expect(await vault.accessToken('app', 'u1')).toBe('at-2');
    expect(refreshes()).toBe(1);
  });

  it('says the user must sign in again when there is no refresh token or the provider refuses it', async () => {
    const refused = setUp(() => Promise.reject(new UnauthorizedError('invalid_grant', 'provider_refused')));
    await refused.vault.save('app', 'u1', 'sso', { accessToken: 'at', expiresAt: NOW_SECONDS - 1 });
    await expect(refused.vault.accessToken('app', 'u1')).rejects.toBeInstanceOf(ConflictError);
    await refused.vault.save('app', 'u1', 'sso', {
      accessToken: 'at',
      refreshToken: 'rt',
      expiresAt: NOW_SECONDS - 1,
    });
    await expect(refused.vault.accessToken('app', 'u1')).rejects.toThrow(/sign in with the provider again/);
  });
});
