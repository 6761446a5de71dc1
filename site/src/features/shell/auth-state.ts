import type { PublicSettings } from '../../lib/boot-data';
import { httpStatusOf } from '../../lib/http-status';

// The template's app/auth state machine, with one visitor-friendly refinement: on an app anyone may see
// (`public_without_login`) nothing waits for, or redirects on, the user check.

export interface AuthUser {
  id: string;
  role?: string;
  email?: string;
  full_name?: string;
}

export interface AuthError {
  type: string;
  message: string;
}

export interface AuthState {
  user: AuthUser | null;
  isAuthenticated: boolean;
  isLoadingAuth: boolean;
  isLoadingPublicSettings: boolean;
  authError: AuthError | null;
  appPublicSettings: PublicSettings | null;
}

/** initialAuthState is where the machine starts, given what the server already told the page. */
export function initialAuthState(knownSettings: PublicSettings | null, hasToken: boolean): AuthState {
  return {
    user: null,
    isAuthenticated: false,
    isLoadingAuth: hasToken || knownSettings === null,
    isLoadingPublicSettings: knownSettings === null,
    authError: null,
    appPublicSettings: knownSettings,
  };
}

/** requiresLogin reports whether visitors must be signed in to see the app (unknown settings: assume so). */
export function requiresLogin(settings: PublicSettings | null): boolean {
  return settings?.public_settings !== 'public_without_login';
}

/** showsSpinner reports whether what to render is still genuinely unknown. */
export function showsSpinner(state: AuthState): boolean {
  return state.isLoadingPublicSettings || (state.isLoadingAuth && requiresLogin(state.appPublicSettings));
}

function errorMessage(error: unknown): string | undefined {
  return error instanceof Error && error.message ? error.message : undefined;
}

/** publicSettingsError maps a failed public-settings fetch to the template's auth errors. */
export function publicSettingsError(error: unknown): AuthError {
  const reason = (error as { data?: { extra_data?: { reason?: unknown } } } | null)?.data?.extra_data?.reason;
  if (httpStatusOf(error) === 403 && typeof reason === 'string' && reason) {
    if (reason === 'auth_required') return { type: 'auth_required', message: 'Authentication required' };
    if (reason === 'user_not_registered') {
      return { type: 'user_not_registered', message: 'User not registered for this app' };
    }
    return { type: reason, message: errorMessage(error) ?? 'Failed to load app' };
  }
  return { type: 'unknown', message: errorMessage(error) ?? 'Failed to load app' };
}

/** userCheckError maps a failed `me()` to auth_required for 401/403, else null (stay anonymous). */
export function userCheckError(error: unknown): AuthError | null {
  const status = httpStatusOf(error);
  return status === 401 || status === 403
    ? { type: 'auth_required', message: 'Authentication required' }
    : null;
}

export interface AppStateDeps {
  knownSettings: PublicSettings | null;
  hasToken: boolean;
  getPublicSettings(): Promise<PublicSettings>;
  me(): Promise<AuthUser>;
  /** forgetToken drops a stale token without navigating (used on public apps). */
  forgetToken(): void;
}

/** checkAppState runs the machine once: public settings, then the current user when a token exists. */
export async function checkAppState(deps: AppStateDeps, update: (patch: Partial<AuthState>) => void) {
  try {
    let settings = deps.knownSettings;
    if (!settings) {
      update({ isLoadingPublicSettings: true, authError: null });
      try {
        settings = await deps.getPublicSettings();
      } catch (error) {
        console.error('App state check failed:', error);
        update({
          authError: publicSettingsError(error),
          isLoadingPublicSettings: false,
          isLoadingAuth: false,
        });
        return;
      }
      update({ appPublicSettings: settings, isLoadingPublicSettings: false });
    }
    if (!deps.hasToken) {
      update({ isLoadingAuth: false, isAuthenticated: false });
      return;
    }
    update({ isLoadingAuth: true });
    try {
      const user = await deps.me();
      update({ user, isAuthenticated: true, isLoadingAuth: false });
    } catch (error) {
      console.error('User auth check failed:', error);
      const authError = userCheckError(error);
      if (authError && requiresLogin(settings)) {
        update({ authError, isLoadingAuth: false, isAuthenticated: false });
      } else {
        if (authError) deps.forgetToken();
        update({ isLoadingAuth: false, isAuthenticated: false });
      }
    }
  } catch (error) {
    update({
      authError: { type: 'unknown', message: errorMessage(error) ?? 'An unexpected error occurred' },
      isLoadingPublicSettings: false,
      isLoadingAuth: false,
    });
  }
}
