import { useCallback, useRef, useState, type FormEvent } from 'react';
import { authErrorMessage } from './error-message';

/** LEAVING is what an action resolves with when it has sent the browser elsewhere. */
export const LEAVING = 'leaving';

/**
 * useSubmit runs one form action at a time, tracks its busy state and turns a failure into the inline
 * message (`onError` may claim an error first, e.g. to move to another step). An action that resolves
 * with LEAVING stays busy while the browser navigates away.
 */
export function useSubmit(action: () => Promise<unknown>, onError?: (error: unknown) => boolean) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const running = useRef(false);

  const submit = useCallback(
    async (event?: FormEvent) => {
      event?.preventDefault();
      if (running.current) return;
      running.current = true;
      setBusy(true);
      setError(null);
      try {
        if ((await action()) === LEAVING) return;
      } catch (caught) {
        if (!onError?.(caught)) setError(authErrorMessage(caught));
      }
      running.current = false;
      setBusy(false);
    },
    [action, onError],
  );

  return { busy, error, setError, submit };
}
