import { lazy, Suspense, useEffect } from 'react';
import { matchRoute } from '../config/paths';
import { HomePage } from '../features/marketing/home-page';
import { AuthProvider } from '../features/shell/auth-provider';
import { useAuth } from '../features/shell/auth-context';
import { showsSpinner } from '../features/shell/auth-state';
import { ErrorBoundary } from '../features/shell/error-boundary';
import { FullScreenSpinner } from '../features/shell/full-screen-spinner';
import { useNavigationReporter } from '../features/shell/use-navigation-reporter';
import { bootData } from '../lib/app-context';

const NotFoundRoute = lazy(() => import('./routes/not-found'));
// Rarely needed on first load, so kept out of the page's initial script.
const Toaster = lazy(() =>
  import('../components/ui/toaster').then((module) => ({ default: module.Toaster })),
);
const UserNotRegistered = lazy(() =>
  import('../features/shell/user-not-registered').then((module) => ({ default: module.UserNotRegistered })),
);

function Routes({ pathname }: { pathname: string }) {
  if (matchRoute(pathname) === 'home') return <HomePage heroImageUrl={bootData.heroImageUrl} />;
  return (
    <Suspense fallback={<FullScreenSpinner />}>
      <NotFoundRoute pathname={pathname} />
    </Suspense>
  );
}

function AuthenticatedApp({ pathname }: { pathname: string }) {
  const auth = useAuth();
  const mustLogin = auth.authError?.type === 'auth_required';
  const { navigateToLogin } = auth;

  useEffect(() => {
    if (mustLogin) navigateToLogin();
  }, [mustLogin, navigateToLogin]);

  if (showsSpinner(auth) || mustLogin) return <FullScreenSpinner />;
  if (auth.authError?.type === 'user_not_registered') {
    return (
      <Suspense fallback={<FullScreenSpinner />}>
        <UserNotRegistered />
      </Suspense>
    );
  }
  // Any other error (unknown, other 403 reasons) is logged by the state machine; the site still renders.
  return <Routes pathname={pathname} />;
}

function NavigationReporter() {
  useNavigationReporter();
  return null;
}

/** App is the whole page: shell state machine, routes, toasts and error reporting. */
export function App({ pathname }: { pathname: string }) {
  return (
    <ErrorBoundary>
      <AuthProvider>
        <NavigationReporter />
        <AuthenticatedApp pathname={pathname} />
      </AuthProvider>
      <Suspense fallback={null}>
        <Toaster />
      </Suspense>
    </ErrorBoundary>
  );
}
