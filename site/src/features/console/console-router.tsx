import { createRootRoute, createRoute, createRouter, redirect } from '@tanstack/react-router';
import { ConsoleLayout } from './components/console-layout';
import { ComingNextPage } from './pages/coming-next-page';
import { DataPage } from './pages/data/data-page';
import { dataSearchOf } from './pages/data/data-search';
import { FunctionsPage } from './pages/functions/functions-page';
import { OverviewPage } from './pages/overview-page';
import { SecretsPage } from './pages/secrets-page';
import { SettingsPage } from './pages/settings-page';
import { UsersPage } from './pages/users-page';

// The console's pages, each at its own URL under `/_/` (code-based routes: five pages need no generator).

const rootRoute = createRootRoute({
  component: ConsoleLayout,
  notFoundComponent: () => (
    <ComingNextPage title="Page not found" what="This console page does not exist. Choose one in the menu." />
  ),
});

const page = (path: string, component: () => React.JSX.Element) =>
  createRoute({ getParentRoute: () => rootRoute, path, component });

const routeTree = rootRoute.addChildren([
  createRoute({
    getParentRoute: () => rootRoute,
    path: '/',
    beforeLoad: () => {
      throw redirect({ to: '/overview', replace: true });
    },
  }),
  page('/overview', OverviewPage),
  page('/users', UsersPage),
  // `?entity=<Name>&as=<userId>`: the entity shown, and the user it is viewed as.
  createRoute({
    getParentRoute: () => rootRoute,
    path: '/data',
    component: DataPage,
    validateSearch: dataSearchOf,
  }),
  page('/functions', FunctionsPage),
  page('/settings', SettingsPage),
  page('/secrets', SecretsPage),
]);

/** createConsoleRouter returns the console's router, rooted at `/_`. */
export function createConsoleRouter() {
  return createRouter({ routeTree, basepath: '/_' });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createConsoleRouter>;
  }
}
