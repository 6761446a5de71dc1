import { useCallback, useEffect, useMemo, useReducer, type ReactNode } from 'react';
import { appParams, bootData } from '../../lib/app-context';
import { dropRejectedToken, getPlatformClient } from '../../lib/platform-client';
import { AuthContext, type AuthContextValue } from './auth-context';
import { checkAppState, initialAuthState, type AuthState, type AuthUser } from './auth-state';

const merge = (state: AuthState, patch: Partial<AuthState>): AuthState => ({ ...state, ...patch });

/** AuthProvider runs the app/auth state machine once on mount and shares its state. */
export function AuthProvider({ children }: { children: ReactNode }) {
  const [state, update] = useReducer(merge, undefined, () =>
    initialAuthState(bootData.publicSettings, Boolean(appParams.token)),
  );

  const runCheck = useCallback(
    () =>
      checkAppState(
        {
          knownSettings: bootData.publicSettings,
          hasToken: Boolean(appParams.token),
          getPublicSettings: async () => (await getPlatformClient()).app.getPublicSettings(),
          me: async () => (await (await getPlatformClient()).auth.me()) as AuthUser,
          forgetToken: () => void dropRejectedToken(),
        },
        update,
      ),
    [],
  );

  useEffect(() => {
    void runCheck();
  }, [runCheck]);

  const value = useMemo<AuthContextValue>(
    () => ({
      ...state,
      checkAppState: runCheck,
      logout(shouldRedirect = true) {
        update({ user: null, isAuthenticated: false });
        void getPlatformClient().then((client) =>
          shouldRedirect ? client.auth.logout(window.location.href) : client.auth.logout(),
        );
      },
      navigateToLogin() {
        void getPlatformClient().then((client) => client.auth.redirectToLogin(window.location.href));
      },
    }),
    [state, runCheck],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
