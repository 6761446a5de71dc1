import type { QueryClient } from '@tanstack/react-query';
import { createRootRoute, createRoute, createRouter, redirect } from '@tanstack/react-router';
import type { ConsoleApi } from './api/console-api';
import { ConsoleLayout } from './components/console-layout';
import { AgentsPage } from './pages/agents/agents-page';
import { AnalyticsPage } from './pages/analytics/analytics-page';
import { ComingNextPage } from './pages/coming-next-page';
import { DataPage } from './pages/data/data-page';
import { prefetchDataPage } from './pages/data/data-prefetch';
import { dataSearchOf } from './pages/data/data-search';
import { LogsPage } from './pages/logs/logs-page';
import { logPagesQuery } from './pages/logs/logs-api';
import { logsSearchOf, queryOf } from './pages/logs/logs-search';
import { FunctionsPage } from './pages/functions/functions-page';
import { IntegrationsPage } from './pages/integrations/integrations-page';
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
  // `?tab=functions|page-views|audit` and its filters: a permalink to a filtered view.
  createRoute({
    getParentRoute: () => rootRoute,
    path: '/logs',
    component: LogsPage,
    validateSearch: logsSearchOf,
  }),
  page('/analytics', AnalyticsPage),
  page('/functions', FunctionsPage),
  page('/agents', AgentsPage),
  page('/integrations', IntegrationsPage),
  page('/settings', SettingsPage),
  page('/secrets', SecretsPage),
]);

const searchOf = (location: Location) => Object.fromEntries(new URLSearchParams(location.search));

/**
 * prefetchFirstScreen asks, while the session is being checked, for what the page at location shows first
 * (the Data page's grid and the Logs page's first entries, the console's heaviest first screens).
 */
export function prefetchFirstScreen(client: QueryClient, api: ConsoleApi, location: Location): void {
  if (location.pathname === '/_/data') {
    prefetchDataPage(client, api, dataSearchOf(searchOf(location)));
  } else if (location.pathname === '/_/logs') {
    const search = logsSearchOf(searchOf(location));
    const tab = search.tab ?? 'functions';
    void client.prefetchInfiniteQuery(logPagesQuery(api, tab, queryOf(search, tab)));
  }
}

/** createConsoleRouter returns the console's router, rooted at `/_`. */
export function createConsoleRouter() {
  return createRouter({ routeTree, basepath: '/_' });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createConsoleRouter>;
  }
}
