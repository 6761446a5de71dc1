import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MockInstance } from 'vitest';
import type { PublicSettings } from '../../lib/boot-data';
import {
  checkAppState,
  initialAuthState,
  publicSettingsError,
  requiresLogin,
  showsSpinner,
  userCheckError,
} from './auth-state';
import type { AppStateDeps, AuthState, AuthUser } from './auth-state';

const PRIVATE: PublicSettings = { id: 'app-1', public_settings: 'private_with_login' };
const PUBLIC: PublicSettings = { id: 'app-1', public_settings: 'public_without_login' };
const USER: AuthUser = { id: 'u1', email: 'queen@example.com', full_name: 'Queen', role: 'user' };

/** httpError builds an Error carrying a status and, optionally, a Base44 `extra_data.reason`. */
function httpError(status: number, message: string, reason?: string): Error {
  return Object.assign(new Error(message), {
    status,
    ...(reason === undefined ? {} : { data: { extra_data: { reason } } }),
  });
}

function makeDeps(overrides: Partial<AppStateDeps> = {}) {
  const deps = {
    knownSettings: null,
    hasToken: false,
    getPublicSettings: vi.fn(async (): Promise<PublicSettings> => PRIVATE),
    me: vi.fn(async (): Promise<AuthUser> => USER),
    forgetToken: vi.fn(),
    ...overrides,
  };
  return deps;
}

/** run executes checkAppState from the matching initial state and records each patch. */
async function run(deps: AppStateDeps) {
  const patches: Partial<AuthState>[] = [];
  let state = initialAuthState(deps.knownSettings, deps.hasToken);
  await checkAppState(deps, (patch) => {
    patches.push(patch);
    state = { ...state, ...patch };
  });
  return { patches, state };
}

let consoleError: MockInstance<typeof console.error>;

beforeEach(() => {
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('initialAuthState', () => {
  it('with unknown settings and no token, waits for settings and auth', () => {
    expect(initialAuthState(null, false)).toEqual<AuthState>({
      user: null,
      isAuthenticated: false,
      isLoadingAuth: true,
      isLoadingPublicSettings: true,
      authError: null,
      appPublicSettings: null,
    });
  });

  it('with known settings and no token, waits for nothing', () => {
    expect(initialAuthState(PUBLIC, false)).toEqual<AuthState>({
      user: null,
      isAuthenticated: false,
      isLoadingAuth: false,
      isLoadingPublicSettings: false,
      authError: null,
      appPublicSettings: PUBLIC,
    });
  });

  it('with known settings and a token, waits only for auth', () => {
    const state = initialAuthState(PRIVATE, true);
    expect(state.isLoadingAuth).toBe(true);
    expect(state.isLoadingPublicSettings).toBe(false);
    expect(state.appPublicSettings).toBe(PRIVATE);
  });
});

describe('requiresLogin', () => {
  it('is false only for public_without_login', () => {
    expect(requiresLogin(PUBLIC)).toBe(false);
    expect(requiresLogin(PRIVATE)).toBe(true);
    expect(requiresLogin({ id: 'x', public_settings: 'public_with_login' })).toBe(true);
    expect(requiresLogin(null)).toBe(true);
  });
});

describe('showsSpinner', () => {
  const base = initialAuthState(PRIVATE, false);

  it('shows while public settings load', () => {
    expect(showsSpinner({ ...base, isLoadingPublicSettings: true, appPublicSettings: null })).toBe(true);
    expect(showsSpinner({ ...base, isLoadingPublicSettings: true, appPublicSettings: PUBLIC })).toBe(true);
  });

  it('shows while auth loads on an app that requires login', () => {
    expect(showsSpinner({ ...base, isLoadingAuth: true })).toBe(true);
  });

  it('does not wait for auth on a public app', () => {
    expect(showsSpinner({ ...base, isLoadingAuth: true, appPublicSettings: PUBLIC })).toBe(false);
  });

  it('hides once nothing is loading', () => {
    expect(showsSpinner(base)).toBe(false);
    expect(showsSpinner(initialAuthState(null, false))).toBe(true);
  });
});

describe('publicSettingsError', () => {
  it('maps 403 auth_required', () => {
    expect(publicSettingsError(httpError(403, 'Forbidden', 'auth_required'))).toEqual({
      type: 'auth_required',
      message: 'Authentication required',
    });
  });

  it('maps 403 user_not_registered', () => {
    expect(publicSettingsError(httpError(403, 'Forbidden', 'user_not_registered'))).toEqual({
      type: 'user_not_registered',
      message: 'User not registered for this app',
    });
  });

  it('maps another 403 reason to its own type with the error message', () => {
    expect(publicSettingsError(httpError(403, 'App is archived', 'app_archived'))).toEqual({
      type: 'app_archived',
      message: 'App is archived',
    });
  });

  it('reads the status from an axios-style response', () => {
    const error = Object.assign(new Error('x'), {
      response: { status: 403 },
      data: { extra_data: { reason: 'auth_required' } },
    });
    expect(publicSettingsError(error).type).toBe('auth_required');
  });

  it('maps a reason without a 403 to unknown', () => {
    expect(publicSettingsError(httpError(401, 'Unauthorized', 'auth_required'))).toEqual({
      type: 'unknown',
      message: 'Unauthorized',
    });
  });

  it('maps a 403 without a reason to unknown', () => {
    expect(publicSettingsError(httpError(403, 'Forbidden'))).toEqual({
      type: 'unknown',
      message: 'Forbidden',
    });
  });

  it('maps anything else to unknown with the message or a fallback', () => {
    expect(publicSettingsError(httpError(500, 'Server exploded'))).toEqual({
      type: 'unknown',
      message: 'Server exploded',
    });
    expect(publicSettingsError(new Error(''))).toEqual({ type: 'unknown', message: 'Failed to load app' });
    expect(publicSettingsError('boom')).toEqual({ type: 'unknown', message: 'Failed to load app' });
    expect(publicSettingsError(null)).toEqual({ type: 'unknown', message: 'Failed to load app' });
    expect(publicSettingsError(undefined)).toEqual({ type: 'unknown', message: 'Failed to load app' });
  });
});

describe('userCheckError', () => {
  it('maps 401 and 403 to auth_required', () => {
    const expected = { type: 'auth_required', message: 'Authentication required' };
    expect(userCheckError(httpError(401, 'Unauthorized'))).toEqual(expected);
    expect(userCheckError(httpError(403, 'Forbidden'))).toEqual(expected);
    expect(userCheckError({ originalError: { response: { status: 401 } } })).toEqual(expected);
  });

  it('maps anything else to null', () => {
    expect(userCheckError(httpError(500, 'Server error'))).toBeNull();
    expect(userCheckError(new Error('network'))).toBeNull();
    expect(userCheckError(undefined)).toBeNull();
  });
});

describe('checkAppState', () => {
  it('known settings and no token: ready without any request', async () => {
    const deps = makeDeps({ knownSettings: PRIVATE });
    const { patches, state } = await run(deps);

    expect(deps.getPublicSettings).not.toHaveBeenCalled();
    expect(deps.me).not.toHaveBeenCalled();
    expect(patches).toEqual([{ isLoadingAuth: false, isAuthenticated: false }]);
    expect(state).toEqual<AuthState>({
      user: null,
      isAuthenticated: false,
      isLoadingAuth: false,
      isLoadingPublicSettings: false,
      authError: null,
      appPublicSettings: PRIVATE,
    });
    expect(showsSpinner(state)).toBe(false);
  });

  it('unknown settings: fetches them, then is ready', async () => {
    const deps = makeDeps({ getPublicSettings: vi.fn(async () => PUBLIC) });
    const { patches, state } = await run(deps);

    expect(deps.getPublicSettings).toHaveBeenCalledTimes(1);
    expect(deps.me).not.toHaveBeenCalled();
    expect(patches).toEqual([
      { isLoadingPublicSettings: true, authError: null },
      { appPublicSettings: PUBLIC, isLoadingPublicSettings: false },
      { isLoadingAuth: false, isAuthenticated: false },
    ]);
    expect(state).toEqual<AuthState>({
      user: null,
      isAuthenticated: false,
      isLoadingAuth: false,
      isLoadingPublicSettings: false,
      authError: null,
      appPublicSettings: PUBLIC,
    });
  });

  it.each([
    ['auth_required', { type: 'auth_required', message: 'Authentication required' }],
    ['user_not_registered', { type: 'user_not_registered', message: 'User not registered for this app' }],
    ['app_archived', { type: 'app_archived', message: 'Forbidden: app_archived' }],
  ])('settings fetch 403 %s: stops with that error', async (reason, expected) => {
    const error = httpError(403, `Forbidden: ${reason}`, reason);
    const deps = makeDeps({ hasToken: true, getPublicSettings: vi.fn(() => Promise.reject(error)) });
    const { patches, state } = await run(deps);

    expect(deps.me).not.toHaveBeenCalled();
    expect(patches).toEqual([
      { isLoadingPublicSettings: true, authError: null },
      { authError: expected, isLoadingPublicSettings: false, isLoadingAuth: false },
    ]);
    expect(state).toEqual<AuthState>({
      user: null,
      isAuthenticated: false,
      isLoadingAuth: false,
      isLoadingPublicSettings: false,
      authError: expected,
      appPublicSettings: null,
    });
    expect(consoleError).toHaveBeenCalledWith('App state check failed:', error);
  });

  it('settings fetch 500: unknown error with the message', async () => {
    const deps = makeDeps({
      getPublicSettings: vi.fn(() => Promise.reject(httpError(500, 'Internal Server Error'))),
    });
    const { state } = await run(deps);
    expect(state.authError).toEqual({ type: 'unknown', message: 'Internal Server Error' });
    expect(state.isLoadingAuth).toBe(false);
    expect(state.isLoadingPublicSettings).toBe(false);
    expect(state.appPublicSettings).toBeNull();
    expect(showsSpinner(state)).toBe(false);
  });

  it('token and me() ok: signed in', async () => {
    const deps = makeDeps({ knownSettings: PRIVATE, hasToken: true });
    const { patches, state } = await run(deps);

    expect(deps.getPublicSettings).not.toHaveBeenCalled();
    expect(deps.me).toHaveBeenCalledTimes(1);
    expect(deps.forgetToken).not.toHaveBeenCalled();
    expect(patches).toEqual([
      { isLoadingAuth: true },
      { user: USER, isAuthenticated: true, isLoadingAuth: false },
    ]);
    expect(state).toEqual<AuthState>({
      user: USER,
      isAuthenticated: true,
      isLoadingAuth: false,
      isLoadingPublicSettings: false,
      authError: null,
      appPublicSettings: PRIVATE,
    });
  });

  it('unknown settings, then token and me() ok', async () => {
    const deps = makeDeps({ hasToken: true });
    const { patches, state } = await run(deps);
    expect(patches).toEqual([
      { isLoadingPublicSettings: true, authError: null },
      { appPublicSettings: PRIVATE, isLoadingPublicSettings: false },
      { isLoadingAuth: true },
      { user: USER, isAuthenticated: true, isLoadingAuth: false },
    ]);
    expect(state.user).toEqual(USER);
    expect(state.isAuthenticated).toBe(true);
  });

  it('token and me() 401 on a private app: auth_required', async () => {
    const error = httpError(401, 'Unauthorized');
    const deps = makeDeps({ knownSettings: PRIVATE, hasToken: true, me: vi.fn(() => Promise.reject(error)) });
    const { patches, state } = await run(deps);

    expect(deps.forgetToken).not.toHaveBeenCalled();
    expect(patches).toEqual([
      { isLoadingAuth: true },
      {
        authError: { type: 'auth_required', message: 'Authentication required' },
        isLoadingAuth: false,
        isAuthenticated: false,
      },
    ]);
    expect(state).toEqual<AuthState>({
      user: null,
      isAuthenticated: false,
      isLoadingAuth: false,
      isLoadingPublicSettings: false,
      authError: { type: 'auth_required', message: 'Authentication required' },
      appPublicSettings: PRIVATE,
    });
    expect(consoleError).toHaveBeenCalledWith('User auth check failed:', error);
  });

  it('token and me() 401 on a public_without_login app: forgets the token and stays anonymous', async () => {
    const deps = makeDeps({
      knownSettings: PUBLIC,
      hasToken: true,
      me: vi.fn(() => Promise.reject(httpError(401, 'Unauthorized'))),
    });
    const { patches, state } = await run(deps);

    expect(deps.forgetToken).toHaveBeenCalledTimes(1);
    expect(patches).toEqual([{ isLoadingAuth: true }, { isLoadingAuth: false, isAuthenticated: false }]);
    expect(state).toEqual<AuthState>({
      user: null,
      isAuthenticated: false,
      isLoadingAuth: false,
      isLoadingPublicSettings: false,
      authError: null,
      appPublicSettings: PUBLIC,
    });
  });

  it('token and me() 500 on a private app: anonymous, keeps the token, no error', async () => {
    const deps = makeDeps({
      knownSettings: PRIVATE,
      hasToken: true,
      me: vi.fn(() => Promise.reject(httpError(500, 'Server error'))),
    });
    const { state } = await run(deps);
    expect(deps.forgetToken).not.toHaveBeenCalled();
    expect(state.authError).toBeNull();
    expect(state.isAuthenticated).toBe(false);
    expect(state.isLoadingAuth).toBe(false);
  });

  it('an unexpected throw inside deps becomes an unknown error', async () => {
    const deps = makeDeps({
      knownSettings: PUBLIC,
      hasToken: true,
      me: vi.fn(() => Promise.reject(httpError(401, 'Unauthorized'))),
      forgetToken: vi.fn(() => {
        throw new Error('storage is gone');
      }),
    });
    const { patches, state } = await run(deps);

    expect(patches).toEqual([
      { isLoadingAuth: true },
      {
        authError: { type: 'unknown', message: 'storage is gone' },
        isLoadingPublicSettings: false,
        isLoadingAuth: false,
      },
    ]);
    expect(state.authError).toEqual({ type: 'unknown', message: 'storage is gone' });
    expect(state.isLoadingAuth).toBe(false);
    expect(state.isAuthenticated).toBe(false);
  });

  it('a non-Error throw gets the generic message', async () => {
    const deps = makeDeps({
      knownSettings: PUBLIC,
      hasToken: true,
      me: vi.fn(() => Promise.reject(httpError(403, 'Forbidden'))),
      forgetToken: vi.fn(() => {
        throw 'not an error';
      }),
    });
    const { state } = await run(deps);
    expect(state.authError).toEqual({ type: 'unknown', message: 'An unexpected error occurred' });
  });
});
