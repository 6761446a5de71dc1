import { QueryClient, QueryClientProvider, useQuery, useQueryClient } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { useEffect, useMemo, useState } from 'react';
import { ConsoleApiError, createConsoleApi } from './api/console-api';
import { ConsoleSessionContext } from './components/console-context';
import { ErrorState, LoadingState } from './components/page-states';
import { AdminsOnly, SignInScreen } from './components/sign-in-screen';
import { Toaster } from '../../components/ui/toaster';
import { createConsoleRouter, prefetchFirstScreen } from './console-router';
import { forgetConsoleToken, readConsoleToken, saveConsoleToken } from './lib/console-session';
import { signInWithProviderPopup } from './lib/provider-popup';
import type { ConsoleSignInChoices } from './components/sign-in-screen';
import type { SignInProviderId } from '../../page-contract/page-contract';

const router = createConsoleRouter();

/** SignedIn checks the session's user: admins get the console, others "Admins only". */
function SignedIn({ appId, token, signOut }: { appId: string; token: string; signOut: () => void }) {
  const api = useMemo(() => createConsoleApi(appId, token), [appId, token]);
  const me = useQuery({ queryKey: ['console', 'me', token], queryFn: () => api.me(), retry: false });
  // The page's own reads go out beside the session check (a non-admin's are refused, and never shown).
  const client = useQueryClient();
  useEffect(() => prefetchFirstScreen(client, api, window.location), [client, api]);
  const session = useMemo(() => (me.data ? { api, user: me.data, signOut } : null), [api, me.data, signOut]);

  // A token the server no longer takes ends the session: back to sign-in.
  const expired = me.error instanceof ConsoleApiError && me.error.status === 401;
  useEffect(() => {
    if (expired) signOut();
  }, [expired, signOut]);

  if (me.isPending || me.isError) {
    return (
      <main className="p-6">
        {me.isPending ? (
          <LoadingState what="your account" />
        ) : (
          <ErrorState error={me.error} retry={() => void me.refetch()} />
        )}
      </main>
    );
  }
  if (me.data.role !== 'admin') return <AdminsOnly email={me.data.email} signOut={signOut} />;
  return (
    <ConsoleSessionContext.Provider value={session}>
      <RouterProvider router={router} />
      <Toaster />
    </ConsoleSessionContext.Provider>
  );
}

/** ConsoleApp is the operator console: its own sign-in, then the pages for the app's admins. */
export function ConsoleApp({
  appId,
  choices,
}: {
  appId: string;
  choices?: ConsoleSignInChoices | undefined;
}) {
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false, retry: 1 } } }),
  );
  const [token, setToken] = useState(readConsoleToken);
  const signOut = useMemo(
    () => () => {
      // The server ends the session (its token is refused from then on); the tab forgets it either way,
      // also when the session had already ended or the server cannot be reached.
      if (token)
        void createConsoleApi(appId, token)
          .signOut()
          .catch(() => undefined);
      forgetConsoleToken();
      queryClient.clear();
      setToken(null);
    },
    [appId, token, queryClient],
  );

  async function signIn(email: string, password: string) {
    const fresh = await createConsoleApi(appId, null).signIn(email, password);
    saveConsoleToken(fresh);
    setToken(fresh);
  }

  async function signInWithProvider(provider: SignInProviderId) {
    // The provider's hand-over token is traded at once for a session's, and never kept.
    const handedOver = await signInWithProviderPopup(provider, appId);
    const fresh = await createConsoleApi(appId, handedOver).tradeForSession();
    saveConsoleToken(fresh);
    setToken(fresh);
  }

  return (
    <QueryClientProvider client={queryClient}>
      {token ? (
        <SignedIn appId={appId} token={token} signOut={signOut} />
      ) : (
        <SignInScreen signIn={signIn} choices={choices} signInWithProvider={signInWithProvider} />
      )}
    </QueryClientProvider>
  );
}
