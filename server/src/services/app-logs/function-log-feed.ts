// The console's live function calls. Why a server-sent-events stream fed from the batch writer, not a
// realtime room nor polling: each flush that commits a batch of calls publishes it once (hub.dispatch: this
// instance, and with REDIS_URL every other one), and each instance writes it to the streams its viewers
// hold open. A viewer costs no query at all; one flush is one fan-out, whatever the number of viewers.
// An SSE stream over plain HTTP admits a viewer with the console's own bearer-token check (no socket
// handshake, no room rules to extend), and the browser gets it from fetch, with the Authorization header.
import type { RealtimeHub } from '../../realtime/realtime-hub';

/** LiveFunctionCall is one written call as the feed pushes it (its output is read on opening it). */
export interface LiveFunctionCall {
  app_id: string;
  id: string;
  function: string;
  request_id: string | null;
  trigger: string;
  status: number;
  duration_ms: number;
  output_dropped: number;
  created_date: string;
}

/** FunctionLogFeed publishes written calls and hands each app's to its local listeners. */
export interface FunctionLogFeed {
  /** publish sends one flush's calls to every instance's listeners (best effort, never throws). */
  publish(calls: LiveFunctionCall[]): void;
  /** subscribe calls listener with appId's calls of each flush; answers the unsubscribe, or null when full. */
  subscribe(appId: string, listener: (calls: LiveFunctionCall[]) => void): (() => void) | null;
  /** listeners is how many streams this instance feeds. */
  listeners(): number;
}

const EVENT = 'console-logs:function-calls';

/** createFunctionLogFeed fans written calls out through hub, at most maxListeners streams per instance. */
export function createFunctionLogFeed(
  hub: Pick<RealtimeHub, 'dispatch' | 'handle'>,
  maxListeners: number,
): FunctionLogFeed {
  const byApp = new Map<string, Set<(calls: LiveFunctionCall[]) => void>>();
  let count = 0;
  hub.handle(EVENT, (payload) => {
    if (!Array.isArray(payload) || byApp.size === 0) return;
    const calls = payload as LiveFunctionCall[];
    for (const [appId, listeners] of byApp) {
      const mine = calls.filter((call) => call.app_id === appId);
      if (mine.length > 0) for (const listener of listeners) listener(mine);
    }
  });
  return {
    publish(calls) {
      if (calls.length > 0) hub.dispatch(EVENT, calls);
    },
    subscribe(appId, listener) {
      if (count >= maxListeners) return null;
      const listeners = byApp.get(appId) ?? new Set();
      byApp.set(appId, listeners);
      listeners.add(listener);
      count += 1;
      return () => {
        if (!listeners.delete(listener)) return;
        count -= 1;
        if (listeners.size === 0) byApp.delete(appId);
      };
    },
    listeners: () => count,
  };
}
