import type { QueryClient } from '@tanstack/react-query';
import type { ConsoleApi } from '../../api/console-api';
import { countsQuery, entitiesQuery, firstRecordsPage, recordsQuery } from './data-api';
import type { DataSearch } from './data-search';

/** prefetchFirstRecords asks for the grid's first page of entity (as viewAs, when set). */
export function prefetchFirstRecords(
  client: QueryClient,
  api: ConsoleApi,
  entity: string,
  viewAs: string | undefined,
): void {
  void client.prefetchQuery(recordsQuery(api, firstRecordsPage(entity, viewAs ?? null)));
}

/**
 * prefetchDataPage asks for everything the Data page's first screen shows, all at once: the console calls
 * it while the session is still being checked, so the page does not wait a round trip more.
 */
export function prefetchDataPage(client: QueryClient, api: ConsoleApi, search: DataSearch): void {
  void client.prefetchQuery(entitiesQuery(api));
  void client.prefetchQuery(countsQuery(api));
  if (search.entity) prefetchFirstRecords(client, api, search.entity, search.as);
}
