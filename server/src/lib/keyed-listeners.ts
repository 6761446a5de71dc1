// Listeners grouped by a key, at most a fixed number in all: the console's live streams (the Logs page's
// feed, the Agents page's test chats) hand each event to its key's listeners only, and refuse a listener
// once the instance holds its bound.

/** KeyedListeners keeps listeners by key, within a bound. */
export interface KeyedListeners<T> {
  /** add keeps listener under key; answers its removal, or null when the bound is reached. */
  add(key: string, listener: (value: T) => void): (() => void) | null;
  /** notify calls key's listeners with value. */
  notify(key: string, value: T): void;
  /** count is how many listeners are kept, under every key. */
  count(): number;
}

/** createKeyedListeners keeps at most max listeners in all. */
export function createKeyedListeners<T>(max: number): KeyedListeners<T> {
  const byKey = new Map<string, Set<(value: T) => void>>();
  let count = 0;
  return {
    add(key, listener) {
      if (count >= max) return null;
      const listeners = byKey.get(key) ?? new Set();
      byKey.set(key, listeners);
      listeners.add(listener);
      count += 1;
      return () => {
        if (!listeners.delete(listener)) return;
        count -= 1;
        if (listeners.size === 0) byKey.delete(key);
      };
    },
    notify(key, value) {
      for (const listener of byKey.get(key) ?? []) listener(value);
    },
    count: () => count,
  };
}
