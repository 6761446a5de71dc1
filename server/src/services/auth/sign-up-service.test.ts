import { describe, expect, it, vi } from 'vitest';
import type { AuthCodesStore, OtpRow } from '../../store/auth-codes-store';
import type { UserRow, UsersStore } from '../../store/users-store';
import type { AppsService } from '../apps/apps-service';
import { appRolesOf } from '../users/app-roles';
import type { Mailer } from '../mail/mailer';
import type { AccountDeps } from './account-deps';
import type { PasswordHasher } from './password-hasher';
import type { AccessTokens } from '../identity/access-tokens';
import { createSignUpService } from './sign-up-service';

// Unit tests of the sign-up rules with in-memory stand-ins for stores and mail; the e2e security spec
// (e2e/tests/security/accounts.spec.ts) checks the same rules through the real server.

function userRow(overrides: Partial<UserRow>): UserRow {
  return {
    id: 'u1',
    app_id: 'app',
    email: 'a@example.test',
    full_name: 'a',
    role: 'user',
    is_verified: false,
    disabled: false,
    approved: false,
    password_hash: 'hash:first',
    custom: {},
    token_version: 0,
    created_date: new Date(),
    updated_date: new Date(),
    ...overrides,
  };
}

function setUp(existing: UserRow | null, pending: OtpRow | null = null) {
  const never = new Promise<never>(() => undefined);
  const hasher: PasswordHasher = {
    hash: vi.fn(async (password: string) => `hash:${password}`),
    verify: vi.fn(async (stored: string | null, password: string) => stored === `hash:${password}`),
  };
  const users = {
    findByEmail: vi.fn(async () => existing),
    insert: vi.fn(async () => userRow({ password_hash: 'hash:new' })),
    update: vi.fn(async () => existing),
    clearPendingPassword: vi.fn(async () => undefined),
  };
  const codes = {
    findOtp: vi.fn(async () => pending),
    replaceOtp: vi.fn(async () => undefined),
    deleteOtp: vi.fn(async () => undefined),
  };
  // A mailer that never finishes: register must answer anyway, on every path.
  const mailer = { send: vi.fn(() => never), describe: () => 'test' };
  const deps = {
    users: users as unknown as UsersStore,
    codes: codes as unknown as AuthCodesStore,
    apps: { requireApp: vi.fn(async () => undefined) } as unknown as AppsService,
    roles: appRolesOf(undefined),
    accessTokens: {} as AccessTokens,
    hasher,
    mailer: mailer as unknown as Mailer,
    throttle: vi.fn(async () => undefined),
    turnstile: vi.fn(async () => undefined),
    otpTtlSeconds: 600,
    log: { warn: vi.fn() },
  } satisfies AccountDeps;
  return { service: createSignUpService(deps), hasher, users, codes, mailer };
}

const from = { ip: '127.0.0.1', linkOrigin: () => 'http://127.0.0.1:8080' };
const input = { email: 'a@example.test', password: 'second password' };
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('register', () => {
  it.each([
    ['a new email', null],
    ['a verified account', userRow({ is_verified: true })],
    ['a pending account', userRow({})],
  ])(
    'hashes the password once and answers before mailing, for %s (same work on every path)',
    async (_label, existing) => {
      const { service, hasher, mailer } = setUp(existing);
      const answer = await service.register('app', input, from);
      expect(answer).toEqual({
        success: true,
        message: 'Check your email for a verification code',
        otp_expires_in_minutes: 10,
      });
      expect(hasher.hash).toHaveBeenCalledTimes(1);
      await flush();
      expect(mailer.send).toHaveBeenCalledTimes(1);
    },
  );

  it('voids every code and forgets the pending password when another password claims the email', async () => {
    const live: OtpRow = {
      user_id: 'u1',
      code_hash: 'x',
      expires_at: new Date(Date.now() + 60_000),
      failed_attempts: 0,
      password_hash: 'hash:first',
    };
    const { service, users, codes, mailer } = setUp(userRow({}), live);
    await service.register('app', input, from);
    await flush();
    expect(users.update).not.toHaveBeenCalled();
    expect(codes.replaceOtp).not.toHaveBeenCalled();
    expect(codes.deleteOtp).toHaveBeenCalledWith('u1');
    expect(users.clearPendingPassword).toHaveBeenCalledWith('app', 'u1');
    expect(mailer.send).toHaveBeenCalledWith(expect.objectContaining({ subject: 'Sign-up attempt on app' }));
  });

  it('re-mails a code bound to the same password when the same password is sent again', async () => {
    const live: OtpRow = {
      user_id: 'u1',
      code_hash: 'x',
      expires_at: new Date(Date.now() + 60_000),
      failed_attempts: 0,
      password_hash: 'hash:second password',
    };
    const { service, users, codes } = setUp(userRow({ password_hash: 'hash:second password' }), live);
    await service.register('app', input, from);
    await flush();
    expect(users.update).not.toHaveBeenCalled();
    expect(codes.replaceOtp).toHaveBeenCalledWith(
      'u1',
      expect.any(String),
      expect.any(Date),
      'hash:second password',
    );
  });

  it("never lets a later sign-up's password become the pending one, even once the code expired", async () => {
    const expired: OtpRow = {
      user_id: 'u1',
      code_hash: 'x',
      expires_at: new Date(Date.now() - 60_000),
      failed_attempts: 0,
      password_hash: 'hash:first',
    };
    for (const pending of [expired, null]) {
      const { service, users, codes, mailer } = setUp(userRow({}), pending);
      await service.register('app', input, from);
      await flush();
      expect(users.update).not.toHaveBeenCalled();
      expect(codes.replaceOtp).not.toHaveBeenCalled();
      expect(mailer.send).toHaveBeenCalledWith(
        expect.objectContaining({ subject: 'Sign-up attempt on app' }),
      );
    }
  });
});
