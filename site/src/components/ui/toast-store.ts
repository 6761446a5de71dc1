// The template's toast reducer (a port of shadcn's, "inspired by react-hot-toast"): newest first, at most
// TOAST_LIMIT kept; dismiss marks a toast closed and removes it TOAST_REMOVE_DELAY ms later.

export const TOAST_LIMIT = 20;
export const TOAST_REMOVE_DELAY = 1_000_000;

export type ToastVariant = 'default' | 'destructive';

export interface Toast {
  id: string;
  title?: string;
  description?: string;
  action?: { label: string; onClick: () => void };
  variant?: ToastVariant;
  open: boolean;
}

export type ToastAction =
  | { type: 'ADD_TOAST'; toast: Toast }
  | { type: 'UPDATE_TOAST'; toast: Partial<Toast> & { id: string } }
  | { type: 'DISMISS_TOAST'; toastId?: string }
  | { type: 'REMOVE_TOAST'; toastId?: string };

export interface ToastState {
  toasts: Toast[];
}

/** toastReducer is the pure state transition of the toast list. */
export function toastReducer(state: ToastState, action: ToastAction): ToastState {
  switch (action.type) {
    case 'ADD_TOAST':
      return { toasts: [action.toast, ...state.toasts].slice(0, TOAST_LIMIT) };
    case 'UPDATE_TOAST':
      return {
        toasts: state.toasts.map((toast) =>
          toast.id === action.toast.id ? { ...toast, ...action.toast } : toast,
        ),
      };
    case 'DISMISS_TOAST':
      return {
        toasts: state.toasts.map((toast) =>
          action.toastId === undefined || toast.id === action.toastId ? { ...toast, open: false } : toast,
        ),
      };
    case 'REMOVE_TOAST':
      return {
        toasts:
          action.toastId === undefined ? [] : state.toasts.filter((toast) => toast.id !== action.toastId),
      };
  }
}

type Listener = (state: ToastState) => void;

/** createToastStore holds toast state outside React, with the removal timers the reducer needs. */
export function createToastStore() {
  let state: ToastState = { toasts: [] };
  let counter = 0;
  const listeners = new Set<Listener>();
  const removalTimers = new Map<string, ReturnType<typeof setTimeout>>();

  function dispatch(action: ToastAction) {
    if (action.type === 'DISMISS_TOAST') {
      const ids = action.toastId === undefined ? state.toasts.map((toast) => toast.id) : [action.toastId];
      ids.forEach(queueRemoval);
    }
    state = toastReducer(state, action);
    listeners.forEach((listener) => listener(state));
  }

  function queueRemoval(id: string) {
    if (removalTimers.has(id)) return;
    const timer = setTimeout(() => {
      removalTimers.delete(id);
      dispatch({ type: 'REMOVE_TOAST', toastId: id });
    }, TOAST_REMOVE_DELAY);
    removalTimers.set(id, timer);
  }

  function toast(props: Omit<Toast, 'id' | 'open'>) {
    counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
    const id = String(counter);
    dispatch({ type: 'ADD_TOAST', toast: { ...props, id, open: true } });
    return {
      id,
      dismiss: () => dispatch({ type: 'DISMISS_TOAST', toastId: id }),
      update: (next: Partial<Omit<Toast, 'id'>>) =>
        dispatch({ type: 'UPDATE_TOAST', toast: { ...next, id } }),
    };
  }

  return {
    getState: () => state,
    subscribe(listener: Listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispatch,
    toast,
    dismiss: (toastId?: string) => dispatch({ type: 'DISMISS_TOAST', toastId }),
  };
}

export type ToastStore = ReturnType<typeof createToastStore>;
