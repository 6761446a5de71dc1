import { useLayoutEffect, useState, useSyncExternalStore } from 'react';

/**
 * useExternalStore is useSyncExternalStore for prerendered pages: its first render shows
 * getServerSnapshot's value, as the HTML was prerendered with it, and the store's own value follows
 * before the browser paints. React DOM does that itself when it hydrates; preact/compat (Home's browser
 * bundle, scripts/home-runtime.ts) hydrates with the store's value and, as it never diffs attributes while
 * hydrating, would leave the prerendered ones (an `aria-pressed`, an icon) stale until the next change.
 */
export function useExternalStore<T>(
  subscribe: (listener: () => void) => () => void,
  getSnapshot: () => T,
  getServerSnapshot: () => T,
): T {
  const value = useSyncExternalStore(subscribe, getSnapshot, getServerSnapshot);
  const [mounted, setMounted] = useState(false);
  // The two-pass render React's docs give for content that differs between server and client.
  // eslint-disable-next-line react-hooks/set-state-in-effect
  useLayoutEffect(() => setMounted(true), []);
  return mounted ? value : getServerSnapshot();
}
