// The console's live test chat: each instance hands the agent pushes it handles (agent-pushes.ts, every
// instance sees every push) to the server-sent-events streams watching that conversation. Why not the
// socket room: the console signs in with a bearer token over plain HTTP, as its live logs do, so a watcher
// costs no socket handshake and no query per push.
import { createKeyedListeners } from '../../lib/keyed-listeners';
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
  const watchers = createKeyedListeners<string>(maxWatchers);
  const keyOf = (appId: string, conversationId: string) => `${appId}\n${conversationId}`;
  return {
    notify: (push) => watchers.notify(keyOf(push.appId, push.conversationId), push.data),
    watch: (appId, conversationId, listener) => watchers.add(keyOf(appId, conversationId), listener),
  };
}
