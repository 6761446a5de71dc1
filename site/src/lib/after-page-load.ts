/** IDLE_TIMEOUT_MS bounds the wait for an idle moment after `load`: a busy page still gets its callback. */
const IDLE_TIMEOUT_MS = 1000;

/**
 * afterPageLoad runs callback once the page has loaded and the main thread is next idle (or after
 * IDLE_TIMEOUT_MS), so decoration never competes with the first paint or with hydration. It returns a
 * function that cancels the wait.
 */
export function afterPageLoad(callback: () => void): () => void {
  let cancelIdle: (() => void) | undefined;
  const whenIdle = () => {
    if (typeof window.requestIdleCallback === 'function') {
      const handle = window.requestIdleCallback(callback, { timeout: IDLE_TIMEOUT_MS });
      cancelIdle = () => window.cancelIdleCallback(handle);
    } else {
      // Safari has no requestIdleCallback: a task after load is the nearest thing.
      const handle = window.setTimeout(callback, 0);
      cancelIdle = () => window.clearTimeout(handle);
    }
  };
  if (document.readyState === 'complete') {
    whenIdle();
    return () => cancelIdle?.();
  }
  window.addEventListener('load', whenIdle, { once: true });
  return () => {
    window.removeEventListener('load', whenIdle);
    cancelIdle?.();
  };
}
