import { z } from 'zod';
import { infiniteQueryOptions } from '@tanstack/react-query';
import type { ConsoleApi } from '../../api/console-api';
import { FIRST_SCREEN_FRESH_MS } from '../../api/first-screen';
import { readServerEvents } from '../../api/server-events';
import type { LogTab } from './logs-search';

// The Logs page's calls: a keyset page of one log (with the cursor of the next), one call's redacted output,
// and a log's live stream of committed rows (server-sent events read through fetch, so the request carries
// the session's token).

const FunctionCallSchema = z.object({
  id: z.string(),
  function: z.string(),
  request_id: z.string().nullable(),
  trigger: z.string(),
  user_id: z.string().nullable(),
  status: z.number(),
  duration_ms: z.number(),
  output_dropped: z.number(),
  created_date: z.string(),
});
export type FunctionCall = z.infer<typeof FunctionCallSchema>;

const PageViewSchema = z.object({
  id: z.string(),
  page: z.string(),
  user_id: z.string().nullable(),
  referrer: z.string().nullable(),
  created_date: z.string(),
});
export type PageViewRow = z.infer<typeof PageViewSchema>;

const AuditEntrySchema = z.object({
  id: z.string(),
  actor: z.unknown(),
  action: z.string(),
  target: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  logged_at: z.string(),
});
export type AuditEntryRow = z.infer<typeof AuditEntrySchema>;

const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), next: z.string().nullable() });
const PAGE_SCHEMAS = {
  functions: pageOf(FunctionCallSchema),
  'page-views': pageOf(PageViewSchema),
  audit: pageOf(AuditEntrySchema),
} as const;

/** LogRows is one page of one tab's rows. */
export type LogRows =
  | { tab: 'functions'; items: FunctionCall[]; next: string | null }
  | { tab: 'page-views'; items: PageViewRow[]; next: string | null }
  | { tab: 'audit'; items: AuditEntryRow[]; next: string | null };

/**
 * concatRows is tab's rows of lists, in their order, each row once (a list of another tab is left out).
 * The lists of one tab hold one row type, so the one cast below is sound.
 */
export function concatRows(tab: LogTab, ...lists: (LogRows | null)[]): LogRows {
  const seen = new Set<string>();
  const items: { id: string }[] = [];
  for (const list of lists) {
    if (list?.tab !== tab) continue;
    for (const row of list.items) {
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      items.push(row);
    }
  }
  return { tab, items, next: null } as LogRows;
}

/** fetchLogPage reads one page of tab's log, filtered, older than before when given. */
export async function fetchLogPage(
  api: ConsoleApi,
  tab: LogTab,
  query: Record<string, string>,
  before: string | null,
): Promise<LogRows> {
  const params = new URLSearchParams(query);
  if (before) params.set('before', before);
  const path = `/admin/logs/${tab}?${params.toString()}`;
  if (tab === 'functions') return { tab, ...(await api.call(path, PAGE_SCHEMAS.functions)) };
  if (tab === 'page-views') return { tab, ...(await api.call(path, PAGE_SCHEMAS['page-views'])) };
  return { tab, ...(await api.call(path, PAGE_SCHEMAS.audit)) };
}

/** logPagesQuery is a tab's pages, filtered, for TanStack Query (the console prefetches the first). */
export const logPagesQuery = (api: ConsoleApi, tab: LogTab, query: Record<string, string>) =>
  infiniteQueryOptions({
    queryKey: ['console', 'logs', tab, query],
    queryFn: ({ pageParam }) => fetchLogPage(api, tab, query, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
    staleTime: FIRST_SCREEN_FRESH_MS,
  });

const OutputSchema = z.object({
  id: z.string(),
  output: z.array(z.object({ stream: z.string(), line: z.string() })),
});

/** fetchCallOutput reads one call's stored output (redacted when it was logged). */
export function fetchCallOutput(api: ConsoleApi, id: string) {
  return api.call(`/admin/logs/functions/${encodeURIComponent(id)}`, OutputSchema);
}

/** liveRowsOf reads one pushed event of tab's stream (the rows the tab's page lists, oldest first). */
export function liveRowsOf(tab: LogTab, data: unknown): LogRows {
  if (tab === 'functions') return { tab, items: z.array(FunctionCallSchema).parse(data), next: null };
  if (tab === 'page-views') return { tab, items: z.array(PageViewSchema).parse(data), next: null };
  return { tab, items: z.array(AuditEntrySchema).parse(data), next: null };
}

/**
 * followLog reads tab's live stream until signal aborts or the stream ends: onOpen once it is open, then
 * onRows with each committed write's rows.
 */
export async function followLog(
  api: ConsoleApi,
  tab: LogTab,
  signal: AbortSignal,
  handlers: { onOpen(): void; onRows(rows: LogRows): void },
): Promise<void> {
  const response = await api.stream(`/admin/logs/live?tab=${tab}`, signal);
  handlers.onOpen();
  await readServerEvents(response, (data) => handlers.onRows(liveRowsOf(tab, JSON.parse(data))));
}
