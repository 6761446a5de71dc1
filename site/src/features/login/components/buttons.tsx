import type { ReactNode } from 'react';
import { useHydrated } from '../lib/use-hydrated';

interface SubmitButtonProps {
  busy: boolean;
  busyLabel: string;
  children: ReactNode;
}

/**
 * SubmitButton is the form's primary action. While busy it stays focusable (aria-disabled) and says what
 * is happening; before hydration it is disabled.
 */
export function SubmitButton({ busy, busyLabel, children }: SubmitButtonProps) {
  const hydrated = useHydrated();
  return (
    <button
      type="submit"
      disabled={!hydrated}
      aria-disabled={busy || undefined}
      className="flex min-h-11 w-full items-center justify-center gap-2 rounded-full bg-gold-300 px-5 py-2.5 font-semibold text-royal-950 hover:bg-gold-200 disabled:opacity-70 aria-disabled:cursor-progress"
    >
      {busy && (
        <span
          aria-hidden="true"
          className="h-4 w-4 animate-spin rounded-full border-2 border-royal-950/30 border-t-royal-950"
        />
      )}
      {busy ? busyLabel : children}
    </button>
  );
}

interface TextButtonProps {
  onClick(): void;
  children: ReactNode;
  busy?: boolean;
}

/** TextButton is a secondary action that reads like a link (switch step, resend a code). */
export function TextButton({ onClick, children, busy = false }: TextButtonProps) {
  const hydrated = useHydrated();
  return (
    <button
      type="button"
      disabled={!hydrated}
      aria-disabled={busy || undefined}
      onClick={() => {
        if (!busy) onClick();
      }}
      className="inline-flex min-h-6 items-center rounded font-medium text-gold-200 underline underline-offset-4 hover:text-gold-100 aria-disabled:cursor-progress aria-disabled:opacity-80"
    >
      {children}
    </button>
  );
}
