import { useEffect, useState } from 'react';
import type { ConsoleApi } from '../../api/console-api';
import { followCalls, type FunctionCall } from './logs-api';
import type { LogsSearch } from './logs-search';

/** LIVE_KEEP bounds the live rows the page holds (older ones are a "Load older" away). */
const LIVE_KEEP = 500;
/** RETRY_MS is the wait before a dropped stream is opened again. */
const RETRY_MS = 3000;

/** LiveState says whether the stream is open, so the page can tell the viewer. */
export type LiveState = 'off' | 'connecting' | 'live' | 'retrying';

/** matches says whether a pushed call belongs in the filtered view. */
export function matches(call: FunctionCall, search: LogsSearch): boolean {
  const at = Date.parse(call.created_date);
  if (search.function && call.function !== search.function) return false;
  if (search.request_id && call.request_id !== search.request_id) return false;
  if (search.status === 'ok' && call.status >= 400) return false;
  if (search.status === 'error' && call.status < 400) return false;
  if (search.from && at < Date.parse(search.from)) return false;
  if (search.to && at >= Date.parse(search.to)) return false;
  return true;
}

/**
 * useLiveCalls follows the live stream while on, keeping the pushed calls that match search (newest first);
 * they start over whenever the filters change. A dropped stream is opened again after RETRY_MS.
 */
export function useLiveCalls(api: ConsoleApi, on: boolean, search: LogsSearch) {
  const filterKey = JSON.stringify(search);
  // Both are kept with the filters they were made under: other filters (or off) start from nothing.
  const [calls, setCalls] = useState<{ key: string; calls: FunctionCall[] }>({ key: '', calls: [] });
  const [state, setState] = useState<{ key: string; state: LiveState }>({ key: '', state: 'off' });
  useEffect(() => {
    if (!on) return;
    const controller = new AbortController();
    const filter = JSON.parse(filterKey) as LogsSearch;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const open = () => {
      followCalls(api, controller.signal, {
        onOpen: () => setState({ key: filterKey, state: 'live' }),
        onCalls: (pushed) => {
          const kept = pushed.filter((call) => matches(call, filter)).reverse();
          if (kept.length === 0) return;
          setCalls((current) => ({
            key: filterKey,
            calls: [...kept, ...(current.key === filterKey ? current.calls : [])].slice(0, LIVE_KEEP),
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
    calls: on && calls.key === filterKey ? calls.calls : [],
    state: !on ? 'off' : state.key === filterKey ? state.state : 'connecting',
  } satisfies { calls: FunctionCall[]; state: LiveState };
}
