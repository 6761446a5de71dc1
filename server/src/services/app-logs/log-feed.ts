// The console's live logs: function calls, page views and audit-log rows as they are committed. Why a
// server-sent-events stream fed by the writers, not a realtime room nor polling: each write that commits
// rows publishes them once (hub.dispatch: this instance, and with REDIS_URL every other one), and each
// instance writes them to the streams its viewers hold open. A viewer costs no query at all; one write is
// one fan-out, whatever the number of viewers. An SSE stream over plain HTTP admits a viewer with the
// console's own bearer-token check (no socket handshake, no room rules to extend), and the browser gets
// it from fetch, with the Authorization header.
import { createKeyedListeners } from '../../lib/keyed-listeners';
import type { RealtimeHub } from '../../realtime/realtime-hub';
import { LIVE_LOG_KINDS, type LiveLogKind } from '../../schemas/console-logs';

/** LiveLogRow is one written row as the feed pushes it: the Logs page's row of its tab, with its app. */
export interface LiveLogRow {
  app_id: string;
  id: string;
}

/** LiveFunctionCall is one written call as the feed pushes it (its output is read on opening it). */
export interface LiveFunctionCall extends LiveLogRow {
  function: string;
  request_id: string | null;
  trigger: string;
  user_id: string | null;
  status: number;
  duration_ms: number;
  output_dropped: number;
  created_date: string;
}

/** LivePageView is one written page view as the feed pushes it. */
export interface LivePageView extends LiveLogRow {
  page: string;
  user_id: string | null;
  referrer: string | null;
  created_date: string;
}

/**
 * MAX_LIVE_ROWS bounds the rows one write publishes (its newest): a busy site's flush of thousands of page
 * views would cross Redis to every instance each second, for viewers who could not read them anyway.
 */
export const MAX_LIVE_ROWS = 200;

/** LogFeed publishes written rows and hands each app's to its local listeners of that log. */
export interface LogFeed {
  /** publish sends one write's rows of kind to every instance's listeners (best effort, never throws). */
  publish(kind: LiveLogKind, rows: LiveLogRow[]): void;
  /** subscribe calls listener with appId's rows of kind; answers the unsubscribe, or null when full. */
  subscribe(appId: string, kind: LiveLogKind, listener: (rows: LiveLogRow[]) => void): (() => void) | null;
  /** listeners is how many streams this instance feeds. */
  listeners(): number;
}

const eventOf = (kind: LiveLogKind) => `console-logs:${kind}`;

/** createLogFeed fans written rows out through hub, at most maxListeners streams per instance. */
export function createLogFeed(hub: Pick<RealtimeHub, 'dispatch' | 'handle'>, maxListeners: number): LogFeed {
  const listeners = createKeyedListeners<LiveLogRow[]>(maxListeners);
  const keyOf = (appId: string, kind: LiveLogKind) => `${appId}\n${kind}`;
  for (const kind of LIVE_LOG_KINDS) {
    hub.handle(eventOf(kind), (payload) => {
      if (!Array.isArray(payload) || listeners.count() === 0) return;
      const byApp = new Map<string, LiveLogRow[]>();
      for (const row of payload as LiveLogRow[]) {
        const rows = byApp.get(row.app_id) ?? [];
        rows.push(row);
        byApp.set(row.app_id, rows);
      }
      for (const [appId, rows] of byApp) listeners.notify(keyOf(appId, kind), rows);
    });
  }
  return {
    publish(kind, rows) {
      if (rows.length > 0) hub.dispatch(eventOf(kind), rows.slice(-MAX_LIVE_ROWS));
    },
    subscribe: (appId, kind, listener) => listeners.add(keyOf(appId, kind), listener),
    listeners: () => listeners.count(),
  };
}
