import { createContext, useContext } from 'react';
import type { AuthState } from './auth-state';

export interface AuthContextValue extends AuthState {
  logout(shouldRedirect?: boolean): void;
  navigateToLogin(): void;
  checkAppState(): Promise<void>;
}

export const AuthContext = createContext<AuthContextValue | null>(null);

/** useAuth reads the app/auth state; it must be used inside AuthProvider. */
export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used within an AuthProvider');
  return value;
}
