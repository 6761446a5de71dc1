import { useSyncExternalStore } from 'react';
import { createToastStore } from './toast-store';

/** toasts is the page's one toast store; call `toast(...)` from anywhere. */
export const toasts = createToastStore();
export const { toast, dismiss } = toasts;

const serverSnapshot = { toasts: [] };

/** useToast subscribes a component to the toast list. */
export function useToast() {
  const state = useSyncExternalStore(toasts.subscribe, toasts.getState, () => serverSnapshot);
  return { toasts: state.toasts, toast, dismiss };
}
