import { useEffect, useState } from 'react';
import type { ConsoleApi } from '../../api/console-api';
import { concatRows, followLog, type LogRows } from './logs-api';
import type { LogTab, LogsSearch } from './logs-search';

/** LIVE_KEEP bounds the live rows the page holds (older ones are a "Load older" away). */
const LIVE_KEEP = 500;
/** RETRY_MS is the wait before a dropped stream is opened again. */
const RETRY_MS = 3000;

/** LiveState says whether the stream is open, so the page can tell the viewer. */
export type LiveState = 'off' | 'connecting' | 'live' | 'retrying';

const inRange = (iso: string, search: LogsSearch) => {
  const at = Date.parse(iso);
  return !(search.from && at < Date.parse(search.from)) && !(search.to && at >= Date.parse(search.to));
};

/** actorMatches says whether an audit row's actor is user (by id or email), as the server's filter does. */
function actorMatches(actor: unknown, user: string): boolean {
  if (typeof actor !== 'object' || actor === null) return false;
  const { id, email } = actor as { id?: unknown; email?: unknown };
  return id === user || email === user;
}

/** matching keeps the pushed rows that belong in the filtered view, as the tab's endpoint would. */
export function matching(rows: LogRows, search: LogsSearch): LogRows {
  if (rows.tab === 'functions') {
    const items = rows.items.filter(
      (call) =>
        inRange(call.created_date, search) &&
        !(search.function && call.function !== search.function) &&
        !(search.request_id && call.request_id !== search.request_id) &&
        !(search.user && call.user_id !== search.user) &&
        !(search.status === 'ok' && call.status >= 400) &&
        !(search.status === 'error' && call.status < 400),
    );
    return { ...rows, items };
  }
  if (rows.tab === 'page-views') {
    const items = rows.items.filter(
      (view) =>
        inRange(view.created_date, search) &&
        !(search.page && view.page !== search.page) &&
        !(search.user && view.user_id !== search.user),
    );
    return { ...rows, items };
  }
  const items = rows.items.filter(
    (entry) => inRange(entry.logged_at, search) && !(search.user && !actorMatches(entry.actor, search.user)),
  );
  return { ...rows, items };
}

/** prepend puts pushed (oldest first, as written) before kept rows of the same tab, newest first, bounded. */
function prepend(pushed: LogRows, kept: LogRows | null): LogRows {
  const newestFirst = { ...pushed, items: [...pushed.items].reverse() } as LogRows;
  const rows = concatRows(pushed.tab, newestFirst, kept);
  return { ...rows, items: rows.items.slice(0, LIVE_KEEP) } as LogRows;
}

/**
 * useLiveRows follows tab's live stream while on, keeping the pushed rows that match search (newest first);
 * they start over whenever the tab or the filters change. A dropped stream is opened again after RETRY_MS.
 */
export function useLiveRows(api: ConsoleApi, tab: LogTab, on: boolean, search: LogsSearch) {
  const filterKey = JSON.stringify({ ...search, tab });
  // Both are kept with the filters they were made under: other filters (or off) start from nothing.
  const [rows, setRows] = useState<{ key: string; rows: LogRows | null }>({ key: '', rows: null });
  const [state, setState] = useState<{ key: string; state: LiveState }>({ key: '', state: 'off' });
  useEffect(() => {
    if (!on) return;
    const controller = new AbortController();
    const filter = JSON.parse(filterKey) as LogsSearch & { tab: LogTab };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const open = () => {
      followLog(api, filter.tab, controller.signal, {
        onOpen: () => setState({ key: filterKey, state: 'live' }),
        onRows: (pushed) => {
          const kept = matching(pushed, filter);
          if (kept.items.length === 0) return;
          setRows((current) => ({
            key: filterKey,
            rows: prepend(kept, current.key === filterKey ? current.rows : null),
          }));
        },
      })
        .catch(() => undefined)
        .finally(() => {
          if (controller.signal.aborted) return;
          setState({ key: filterKey, state: 'retrying' });
          timer = setTimeout(() => {
            setState({ key: filterKey, state: 'connecting' });
            open();
          }, RETRY_MS);
        });
    };
    open();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [api, on, filterKey]);
  return {
    rows: on && rows.key === filterKey ? rows.rows : null,
    state: !on ? 'off' : state.key === filterKey ? state.state : 'connecting',
  } satisfies { rows: LogRows | null; state: LiveState };
}
