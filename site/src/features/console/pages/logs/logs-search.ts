// The Logs page's URL state, so a filtered view is a permalink: `?tab=` picks the log, the rest filter it
// (from/to as ISO date-times, function, status, request_id, page, user).

/** LOG_TABS are the page's three logs, in the order of its tabs. */
export const LOG_TABS = ['functions', 'page-views', 'audit'] as const;
export type LogTab = (typeof LOG_TABS)[number];

/** LogsSearch is the Logs page's search params. */
export interface LogsSearch {
  tab?: LogTab | undefined;
  from?: string | undefined;
  to?: string | undefined;
  function?: string | undefined;
  status?: 'ok' | 'error' | undefined;
  request_id?: string | undefined;
  page?: string | undefined;
  user?: string | undefined;
}

/** FILTERS_OF are the filters each tab offers (besides the time range). */
export const FILTERS_OF: Record<LogTab, readonly (keyof LogsSearch)[]> = {
  functions: ['function', 'status', 'request_id', 'user'],
  'page-views': ['page', 'user'],
  audit: ['user'],
};

const text = (value: unknown) => (typeof value === 'string' && value ? value.slice(0, 200) : undefined);
const time = (value: unknown) => {
  const given = text(value);
  return given && !Number.isNaN(Date.parse(given)) ? new Date(given).toISOString() : undefined;
};
const oneOf = <T extends string>(values: readonly T[], value: unknown): T | undefined =>
  values.find((known) => known === value);

/** logsSearchOf keeps the params the page knows, well formed (anything else is dropped). */
export function logsSearchOf(search: Record<string, unknown>): LogsSearch {
  return {
    tab: oneOf(LOG_TABS, search.tab),
    from: time(search.from),
    to: time(search.to),
    function: text(search.function),
    status: oneOf(['ok', 'error'] as const, search.status),
    request_id: text(search.request_id),
    page: text(search.page),
    user: text(search.user),
  };
}

/** queryOf is the tab's filters as the admin endpoint's query (no cursor). */
export function queryOf(search: LogsSearch, tab: LogTab): Record<string, string> {
  const query: Record<string, string> = {};
  for (const key of ['from', 'to', ...FILTERS_OF[tab]] as const) {
    const value = search[key];
    if (value) query[key] = value;
  }
  return query;
}

/** localInputOf shows an ISO time in a datetime-local field (the viewer's time zone). */
export function localInputOf(iso: string | undefined): string {
  if (!iso) return '';
  const time = new Date(iso);
  const local = new Date(time.getTime() - time.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}
