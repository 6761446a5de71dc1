import type { Toast } from './toast-store';

export type ToastInput = Omit<Toast, 'id' | 'open'>;

/** toast shows a notification; the toast store and Toaster load on first use, not with the page. */
export async function toast(props: ToastInput) {
  const { toasts } = await import('./use-toast');
  return toasts.toast(props);
}
