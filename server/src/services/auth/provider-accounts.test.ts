import { describe, expect, it, vi } from 'vitest';
import type { AuthCodesStore } from '../../store/auth-codes-store';
import type { UserRow, UsersStore } from '../../store/users-store';
import type { AppsService } from '../apps/apps-service';
import type { AccessTokens } from '../identity/access-tokens';
import type { Mailer } from '../mail/mailer';
import { appRolesOf } from '../users/app-roles';
import type { AccountDeps } from './account-deps';
import type { PasswordHasher } from './password-hasher';
import { createProviderAccounts } from './provider-accounts';

// The account rules of external sign-in with in-memory stand-ins; e2e/tests/api/provider-sign-in.spec.ts
// runs them through a real provider and server.

function userRow(overrides: Partial<UserRow>): UserRow {
  return {
    id: 'u1',
    app_id: 'app',
    email: 'a@example.test',
    full_name: 'a',
    role: 'user',
    is_verified: true,
    disabled: false,
    approved: true,
    password_hash: 'hash:pw',
    custom: {},
    token_version: 0,
    created_date: new Date(),
    updated_date: new Date(),
    ...overrides,
  };
}

function setUp(existing: UserRow | null, selfSignup = true) {
  const users = {
    findByEmail: vi.fn(async () => existing),
    insert: vi.fn(async (user: { approved: boolean; isVerified: boolean }) =>
      userRow({ id: 'new', approved: user.approved, is_verified: user.isVerified, password_hash: null }),
    ),
    update: vi.fn(async () => (existing ? { ...existing, is_verified: true } : null)),
    clearPendingPassword: vi.fn(async () => undefined),
  };
  const codes = { deleteOtp: vi.fn(async () => undefined) };
  const deps = {
    users: users as unknown as UsersStore,
    codes: codes as unknown as AuthCodesStore,
    apps: {
      requireApp: vi.fn(async () => undefined),
      findAccessSettings: vi.fn(async () => ({ visibility: 'public_with_login', selfSignup })),
    } as unknown as AppsService,
    roles: appRolesOf(undefined),
    accessTokens: {
      issueToken: vi.fn(async (user: UserRow) => `token-of-${user.id}`),
    } as unknown as AccessTokens,
    hasher: {} as PasswordHasher,
    mailer: {} as Mailer,
    throttle: vi.fn(async () => undefined),
    turnstile: vi.fn(async () => undefined),
    otpTtlSeconds: 600,
    log: { warn: vi.fn() },
  } satisfies AccountDeps;
  return { accounts: createProviderAccounts(deps, () => undefined), users, codes };
}

const reasonOf = (call: Promise<unknown>) =>
  call.then(
    () => 'signed in',
    (error: { reason?: string }) => error.reason,
  );

describe('provider accounts', () => {
  it('signs an existing user in only for an email the provider verified', async () => {
    const { accounts } = setUp(userRow({}));
    await expect(accounts.signIn('app', { email: 'a@example.test', emailVerified: true })).resolves.toEqual({
      userId: 'u1',
      accessToken: 'token-of-u1',
      isNewUser: false,
    });
    expect(await reasonOf(accounts.signIn('app', { email: 'a@example.test', emailVerified: false }))).toBe(
      'email_not_verified',
    );
  });

  it('refuses a disabled user', async () => {
    const { accounts } = setUp(userRow({ disabled: true }));
    expect(await reasonOf(accounts.signIn('app', { email: 'a@example.test', emailVerified: true }))).toBe(
      'user_disabled',
    );
  });

  it("drops a pending sign-up's password when the provider proves the mailbox", async () => {
    const { accounts, users, codes } = setUp(userRow({ is_verified: false, approved: false }));
    await accounts.signIn('app', { email: 'a@example.test', emailVerified: true });
    expect(users.clearPendingPassword).toHaveBeenCalledWith('app', 'u1');
    expect(codes.deleteOtp).toHaveBeenCalledWith('u1');
    expect(users.update).toHaveBeenCalledWith('app', 'u1', { isVerified: true, approved: true });
  });

  it('creates a verified user, approved only with self-sign-up', async () => {
    for (const selfSignup of [true, false]) {
      const { accounts, users } = setUp(null, selfSignup);
      const result = await accounts.signIn('app', {
        email: 'n@example.test',
        emailVerified: true,
        name: 'N',
      });
      expect(result.isNewUser).toBe(true);
      expect(users.insert).toHaveBeenCalledWith(
        expect.objectContaining({
          isVerified: true,
          approved: selfSignup,
          passwordHash: null,
          fullName: 'N',
        }),
      );
    }
  });
});
