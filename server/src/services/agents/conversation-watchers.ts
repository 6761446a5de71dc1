// The console's live test chat: each instance hands the agent pushes it handles (agent-pushes.ts, every
// instance sees every push) to the server-sent-events streams watching that conversation. Why not the
// socket room: the console signs in with a bearer token over plain HTTP, as its live logs do, so a watcher
// costs no socket handshake and no query per push.
import type { AgentPush } from './agent-pushes';

/** ConversationWatchers hands pushes to the streams watching their conversation. */
export interface ConversationWatchers {
  /** notify hands push to every watcher of its conversation. */
  notify(push: AgentPush): void;
  /** watch calls listener with each push's data; answers the unwatch, or null when this instance is full. */
  watch(appId: string, conversationId: string, listener: (data: string) => void): (() => void) | null;
}

/** createConversationWatchers keeps at most maxWatchers watchers on this instance. */
export function createConversationWatchers(maxWatchers: number): ConversationWatchers {
  const byConversation = new Map<string, Set<(data: string) => void>>();
  const keyOf = (appId: string, conversationId: string) => `${appId}\n${conversationId}`;
  let count = 0;
  return {
    notify(push) {
      const listeners = byConversation.get(keyOf(push.appId, push.conversationId));
      if (listeners) for (const listener of listeners) listener(push.data);
    },
    watch(appId, conversationId, listener) {
      if (count >= maxWatchers) return null;
      const key = keyOf(appId, conversationId);
      const listeners = byConversation.get(key) ?? new Set();
      byConversation.set(key, listeners);
      listeners.add(listener);
      count += 1;
      return () => {
        if (!listeners.delete(listener)) return;
        count -= 1;
        if (listeners.size === 0) byConversation.delete(key);
      };
    },
  };
}
