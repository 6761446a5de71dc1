import { z } from 'zod';
import type { ConsoleApi } from '../../api/console-api';
import type { RecordsRead } from '../../api/records-api';
import { FIRST_SCREEN_FRESH_MS } from '../../api/first-screen';
import { ConsoleEntitiesSchema, EntityCountsSchema } from './console-entity';

// The Data page's calls: the admin's own reads go through the official SDK's `filter`; a "View as" read
// goes through the admin endpoint that answers what that user's `filter` would.

/** PAGE_SIZE is how many records one grid page holds. */
export const PAGE_SIZE = 50;

/** GridRecord is one record as the list endpoint answers it. */
export type GridRecord = Record<string, unknown> & { id: string };
const RecordsSchema = z.array(z.looseObject({ id: z.string() }));

/** RecordsQuery is one grid page's request. */
export interface RecordsQuery {
  entity: string;
  sort: string;
  page: number;
  query: Record<string, unknown>;
  viewAs: string | null;
}

/** RecordsPage is one grid page, and whether another follows. */
export interface RecordsPage {
  records: GridRecord[];
  more: boolean;
}

/** fetchEntities lists the project's entities with schema and rules. */
export async function fetchEntities(api: ConsoleApi) {
  return (await api.call('/admin/entities', ConsoleEntitiesSchema)).entities;
}

/** fetchCounts answers each entity's record count (asked apart: it reads every record). */
export async function fetchCounts(api: ConsoleApi): Promise<Record<string, number>> {
  return (await api.call('/admin/entities/counts', EntityCountsSchema)).counts;
}

/** fetchRecords reads one page (one record more than shown, to know whether a next page exists). */
export async function fetchRecords(api: ConsoleApi, request: RecordsQuery): Promise<RecordsPage> {
  const read = {
    query: request.query,
    sort: request.sort,
    limit: PAGE_SIZE + 1,
    skip: (request.page - 1) * PAGE_SIZE,
  };
  const rows = request.viewAs
    ? await readAsUser(api, request.entity, request.viewAs, read)
    : RecordsSchema.parse(await api.records.read(request.entity, read));
  return { records: rows.slice(0, PAGE_SIZE), more: rows.length > PAGE_SIZE };
}

/**
 * withRecord updates a cached grid page with a record as the server stored it: its row, if on the page, is
 * replaced in place; a record not on the page leaves it as it was (the refetch places it).
 */
export function withRecord(saved: Record<string, unknown>) {
  return (page: RecordsPage | undefined): RecordsPage | undefined =>
    page && {
      ...page,
      records: page.records.map((row) => (row.id === saved.id ? { ...saved, id: row.id } : row)),
    };
}

/** withoutRecord takes a deleted record's row out of a cached grid page (the refetch fills the page again). */
export function withoutRecord(id: string) {
  return (page: RecordsPage | undefined): RecordsPage | undefined =>
    page && { ...page, records: page.records.filter((row) => row.id !== id) };
}

/** readAsUser reads a page as the user asUserId would get it (the admin API: the SDK has no such call). */
function readAsUser(api: ConsoleApi, entity: string, asUserId: string, read: RecordsRead) {
  const params = new URLSearchParams({ sort: read.sort, limit: String(read.limit), skip: String(read.skip) });
  if (Object.keys(read.query).length > 0) params.set('q', JSON.stringify(read.query));
  const path = `/admin/entities/${encodeURIComponent(entity)}/view-as/${encodeURIComponent(asUserId)}`;
  return api.call(`${path}?${params.toString()}`, RecordsSchema);
}

/** DEFAULT_SORT is the grid's first order: newest first. */
export const DEFAULT_SORT = '-created_date';

/** entitiesQuery is the entity list's query for TanStack Query. */
export const entitiesQuery = (api: ConsoleApi) => ({
  queryKey: ['console', 'entities'],
  queryFn: () => fetchEntities(api),
  staleTime: FIRST_SCREEN_FRESH_MS,
});

/** countsQuery is the record counts' query (they read every record: never waited on). */
export const countsQuery = (api: ConsoleApi) => ({
  queryKey: ['console', 'entity-counts'],
  queryFn: () => fetchCounts(api),
  staleTime: FIRST_SCREEN_FRESH_MS,
});

/** firstRecordsPage is the grid's first request for an entity: default sort, no filter. */
export const firstRecordsPage = (entity: string, viewAs: string | null): RecordsQuery => ({
  entity,
  viewAs,
  sort: DEFAULT_SORT,
  page: 1,
  query: {},
});

/** recordsQuery is one grid page's query for TanStack Query (the page prefetches the first one). */
export function recordsQuery(api: ConsoleApi, request: RecordsQuery) {
  const { entity, viewAs, sort, page, query } = request;
  return {
    queryKey: ['console', 'records', entity, viewAs, sort, page, query],
    queryFn: () => fetchRecords(api, request),
    staleTime: FIRST_SCREEN_FRESH_MS,
  };
}

/** fetchUserEmail names a user by id (the admin reads the User entity), for the View-as banner. */
export async function fetchUserEmail(api: ConsoleApi, id: string): Promise<string> {
  return z.object({ email: z.string() }).parse(await api.records.get('User', id)).email;
}
