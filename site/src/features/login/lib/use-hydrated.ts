import { useSyncExternalStore } from 'react';

const subscribe = () => () => undefined;

/**
 * useHydrated is false in the prerendered HTML and during hydration, then true: forms stay disabled until
 * React handles their submit, so an early Enter can never send a password in a plain GET.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
