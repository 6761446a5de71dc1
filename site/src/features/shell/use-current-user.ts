import { useQuery } from '@tanstack/react-query';
import { getPlatformClient } from '../../lib/platform-client';
import type { AuthUser } from './auth-state';

export interface CurrentUser {
  user: AuthUser | null;
  isAuthenticated: boolean;
}

/** useCurrentUser fetches the signed-in user (the template's ['user'] query); failure means anonymous. */
export function useCurrentUser() {
  return useQuery<CurrentUser>({
    queryKey: ['user'],
    queryFn: async () => {
      try {
        const user = (await (await getPlatformClient()).auth.me()) as AuthUser;
        return { user, isAuthenticated: true };
      } catch {
        return { user: null, isAuthenticated: false };
      }
    },
  });
}
