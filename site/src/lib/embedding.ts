import { httpStatusOf } from './http-status';

// Messages for a parent window that embeds the app (the Base44 editor does); all use target origin '*'
// as the template does, so they must never carry a secret: URLs are sent without `access_token`.

export interface AppErrorMessage {
  type: 'app_error';
  error: { title: string; details: string; componentName: string | null };
}

function parentWindow(): Window | null {
  if (typeof window === 'undefined' || window.parent === window) return null;
  return window.parent;
}

/** urlWithoutToken removes an `access_token` query parameter from a URL. */
export function urlWithoutToken(href: string): string {
  const url = new URL(href);
  if (!url.searchParams.has('access_token')) return href;
  url.searchParams.delete('access_token');
  return url.href;
}

/** postUrlChanged tells the parent window the app's current URL. */
export function postUrlChanged(href: string): void {
  parentWindow()?.postMessage({ type: 'app_changed_url', url: urlWithoutToken(href) }, '*');
}

/** componentNameFromStack finds the first named function frame in a stack trace. */
export function componentNameFromStack(stack: string | undefined): string | null {
  const match = stack?.match(/at\s+([A-Z]\w*)\s+\(/) ?? stack?.match(/^\s*([A-Z]\w*)@/m);
  return match?.[1] ?? null;
}

/** appErrorMessage builds the `app_error` payload for an error, or null when it must not be reported (HTTP 402). */
export function appErrorMessage(error: unknown, componentName?: string | null): AppErrorMessage | null {
  if (httpStatusOf(error) === 402) return null;
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const stack = error instanceof Error ? error.stack : undefined;
  const name = componentName ?? componentNameFromStack(stack);
  return {
    type: 'app_error',
    error: {
      title: name ? `Error in ${name}: ${text}` : text,
      details: stack ?? text,
      componentName: name,
    },
  };
}

/** postAppError reports an error to the parent window unless it is a 402 (payment required). */
export function postAppError(error: unknown, componentName?: string | null): void {
  const message = appErrorMessage(error, componentName);
  if (message) parentWindow()?.postMessage(message, '*');
}

/**
 * watchLocation calls onChange with the URL now and after every history or hash change; it returns a
 * function that stops watching.
 */
export function watchLocation(onChange: (href: string) => void): () => void {
  let last = window.location.href;
  onChange(last);
  const check = () => {
    if (window.location.href === last) return;
    last = window.location.href;
    onChange(last);
  };
  const { pushState, replaceState } = window.history;
  window.history.pushState = function (...args: Parameters<History['pushState']>) {
    pushState.apply(this, args);
    check();
  };
  window.history.replaceState = function (...args: Parameters<History['replaceState']>) {
    replaceState.apply(this, args);
    check();
  };
  window.addEventListener('popstate', check);
  window.addEventListener('hashchange', check);
  return () => {
    window.history.pushState = pushState;
    window.history.replaceState = replaceState;
    window.removeEventListener('popstate', check);
    window.removeEventListener('hashchange', check);
  };
}

/** reportGlobalErrors forwards window errors and unhandled rejections to the parent window. */
export function reportGlobalErrors(): void {
  window.addEventListener('error', (event) => postAppError(event.error ?? event.message));
  window.addEventListener('unhandledrejection', (event) => postAppError(event.reason));
}
