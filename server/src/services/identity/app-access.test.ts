import { describe, expect, it } from 'vitest';
import { ForbiddenError, UnauthorizedError } from '../../lib/errors';
import type { UserRow } from '../../store/users-store';
import type { BearerCheck } from './access-tokens';
import { createAppAccess, decideDataAccess, standingOf, type Principal, type Standing } from './app-access';
import type { AppsService } from '../apps/apps-service';

const user = (changes: Partial<UserRow> = {}): UserRow =>
  ({
    id: 'u1',
    app_id: 'app',
    email: 'a@x.test',
    role: 'user',
    approved: true,
    custom: {},
    ...changes,
  }) as UserRow;

describe('decideDataAccess', () => {
  const table: [string, Standing, 'allowed' | 401 | 403][] = [
    ['private_with_login', 'anonymous', 401],
    ['private_with_login', 'unapproved', 403],
    ['private_with_login', 'approved', 'allowed'],
    ['private_with_login', 'service', 'allowed'],
    ['public_with_login', 'anonymous', 'allowed'],
    ['public_with_login', 'unapproved', 'allowed'],
    ['public_without_login', 'anonymous', 'allowed'],
    ['public_without_login', 'service', 'allowed'],
  ];
  it.each(table)('%s, %s caller: %s', (visibility, standing, expected) => {
    const decision = decideDataAccess(visibility, standing);
    expect(decision.allowed ? 'allowed' : decision.status).toBe(expected);
    if (!decision.allowed) {
      expect(decision.reason).toBe(expected === 401 ? 'auth_required' : 'user_not_registered');
    }
  });
});

describe('standingOf', () => {
  it('counts admins as approved, disabled and unapproved users as unapproved, bad tokens as anonymous', () => {
    const cases: [Principal, Standing][] = [
      [{ kind: 'anonymous' }, 'anonymous'],
      [{ kind: 'invalid' }, 'anonymous'],
      [{ kind: 'user', user: user() }, 'approved'],
      [{ kind: 'user', user: user({ approved: false }) }, 'unapproved'],
      [{ kind: 'user', user: user({ approved: false, role: 'admin' }) }, 'approved'],
      [{ kind: 'disabled', user: user() }, 'unapproved'],
      [{ kind: 'service', onBehalfOf: null }, 'service'],
    ];
    for (const [principal, standing] of cases) expect(standingOf(principal)).toBe(standing);
  });
});

describe('createAppAccess', () => {
  const access = (visibility: string, checks: Record<string, BearerCheck>) =>
    createAppAccess({
      apps: { findAccessSettings: async () => ({ visibility, selfSignup: false }) } as unknown as AppsService,
      accessTokens: {
        check: async (_app, header) => checks[header ?? ''] ?? { status: 'none' },
        checkMany: async (_app, tokens) =>
          new Map(tokens.map((token) => [token, checks[`Bearer ${token}`] ?? { status: 'invalid' }])),
        checkUser: async (_app, id) => checks[`user ${id}`] ?? { status: 'invalid' },
      },
    });

  it('resolves the service role with its on-behalf-of user', async () => {
    const a = access('private_with_login', {
      'Bearer svc': { status: 'service' },
      'Bearer u': { status: 'user', user: user() },
    });
    expect(await a.identify('app', 'Bearer svc', 'Bearer u')).toEqual({
      kind: 'service',
      onBehalfOf: user(),
    });
    expect(a.requireUser(await a.identify('app', 'Bearer svc', 'Bearer u'))).toEqual(user());
    expect(await a.identify('app', 'Bearer u', 'Bearer svc')).toEqual({ kind: 'user', user: user() });
  });

  it('refuses data of a private app with the reasons the SDK reads', async () => {
    const a = access('private_with_login', {});
    const anonymous = await a.dataCaller('app', { kind: 'anonymous' }).catch((error: unknown) => error);
    expect(anonymous).toBeInstanceOf(UnauthorizedError);
    expect((anonymous as UnauthorizedError).reason).toBe('auth_required');
    const unapproved = await a
      .dataCaller('app', { kind: 'user', user: user({ approved: false }) })
      .catch((error: unknown) => error);
    expect(unapproved).toBeInstanceOf(ForbiddenError);
    expect((unapproved as ForbiddenError).reason).toBe('user_not_registered');
    expect(await a.dataCaller('app', { kind: 'service', onBehalfOf: null })).toEqual({ kind: 'service' });
    expect(await a.dataCaller('app', { kind: 'user', user: user() })).toMatchObject({ kind: 'user' });
  });

  it('fails a bad token on data routes, except for fire-and-forget traffic on an open app', async () => {
    const a = access('public_without_login', {});
    await expect(a.dataCaller('app', { kind: 'invalid' })).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(a.dataCaller('app', { kind: 'disabled', user: user() })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    expect(await a.dataCaller('app', { kind: 'invalid' }, { badTokenAsAnonymous: true })).toEqual({
      kind: 'anonymous',
    });
  });

  it('admits sockets by the same rule; a bad token is anonymous', async () => {
    const checks: Record<string, BearerCheck> = {
      'Bearer ok': { status: 'user', user: user() },
      'Bearer new': { status: 'user', user: user({ approved: false }) },
      'Bearer bad': { status: 'invalid' },
      'Bearer svc': { status: 'service' },
    };
    const closed = access('private_with_login', checks);
    expect(await closed.socketAccess('app', null)).toEqual({
      caller: { kind: 'anonymous' },
      admitted: false,
    });
    expect(await closed.socketAccess('app', 'bad')).toEqual({
      caller: { kind: 'anonymous' },
      admitted: false,
    });
    expect((await closed.socketAccess('app', 'new')).admitted).toBe(false);
    expect((await closed.socketAccess('app', 'ok')).admitted).toBe(true);
    expect(await closed.socketAccess('app', 'svc')).toEqual({ caller: { kind: 'service' }, admitted: true });
    const open = access('public_without_login', checks);
    expect(await open.socketAccess('app', null)).toEqual({ caller: { kind: 'anonymous' }, admitted: true });
  });

  it('answers many sockets’ tokens as it answers each one', async () => {
    const checks: Record<string, BearerCheck> = {
      'Bearer ok': { status: 'user', user: user() },
      'Bearer new': { status: 'user', user: user({ approved: false }) },
      'Bearer off': { status: 'inactive', user: user({ disabled: true }) },
      'Bearer bad': { status: 'invalid' },
      'Bearer svc': { status: 'service' },
    };
    for (const visibility of ['private_with_login', 'public_with_login', 'public_without_login']) {
      const a = access(visibility, checks);
      const tokens = ['ok', 'new', 'off', 'bad', 'svc'];
      const many = await a.socketAccessMany('app', tokens);
      for (const token of tokens) expect(many.get(token), token).toEqual(await a.socketAccess('app', token));
    }
    expect(await access('private_with_login', checks).socketAccessMany('', ['ok'])).toEqual(
      new Map([['ok', { caller: { kind: 'anonymous' }, admitted: false }]]),
    );
  });

  it('gives the tokens of one user one shared answer, and other users their own', async () => {
    const alice = user();
    const checks: Record<string, BearerCheck> = {
      'Bearer tab1': { status: 'user', user: alice },
      'Bearer tab2': { status: 'user', user: alice },
      'Bearer other': { status: 'user', user: user({ id: 'u2', email: 'b@x.test' }) },
    };
    const many = await access('public_with_login', checks).socketAccessMany('app', ['tab1', 'tab2', 'other']);
    expect(many.get('tab1')).toBe(many.get('tab2'));
    expect(many.get('other')).not.toBe(many.get('tab1'));
    expect(many.get('other')?.caller).not.toEqual(many.get('tab1')?.caller);
  });

  it("refuses a function call's own token where only the operator's service token may go", async () => {
    const a = access('public_without_login', {
      'Bearer svc': { status: 'service' },
      'Bearer call': { status: 'service', functionCall: true },
      'Bearer u': { status: 'user', user: user() },
    });
    const call = await a.identify('app', 'Bearer call', 'Bearer u');
    expect(call).toEqual({ kind: 'service', onBehalfOf: user(), functionCall: true });
    expect(() => a.requireService(call)).toThrow(ForbiddenError);
    expect(() => a.requireService(call)).toThrow(/SERVICE_TOKEN/);
    expect(() => a.requireService(Object.freeze({ kind: 'service', onBehalfOf: null }))).not.toThrow();
    // The console's admin endpoints too: the app's admins and the operator's token only.
    expect(() => a.requireOperator(call)).toThrow(/SERVICE_TOKEN/);
    expect(a.requireOperator(Object.freeze({ kind: 'service', onBehalfOf: null }))).toBeNull();
    expect(a.requireOperator({ kind: 'user', user: user({ role: 'admin' }) })).toEqual(
      user({ role: 'admin' }),
    );
    expect(() => a.requireOperator({ kind: 'user', user: user() })).toThrow(ForbiddenError);
    // Elsewhere it is the service role, as the SDK's asServiceRole expects.
    expect(await a.dataCaller('app', call)).toEqual({ kind: 'service' });
  });
});
