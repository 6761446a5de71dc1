import { useToast } from './use-toast';

/** Toaster shows open toasts in a polite live region; the close button dismisses a toast. */
export function Toaster() {
  const { toasts, dismiss } = useToast();
  return (
    <section
      aria-label="Notifications"
      aria-live="polite"
      className="pointer-events-none fixed inset-x-0 top-0 z-[100] flex flex-col gap-2 p-4 sm:inset-x-auto sm:top-auto sm:right-0 sm:bottom-0 md:max-w-[420px]"
    >
      {toasts
        .filter((item) => item.open)
        .map((item) => (
          <div
            key={item.id}
            role={item.variant === 'destructive' ? 'alert' : 'status'}
            className={`toast-in pointer-events-auto flex items-start gap-3 rounded-xl border p-4 pr-10 shadow-2xl relative ${
              item.variant === 'destructive'
                ? 'border-red-400/60 bg-red-950 text-red-50'
                : 'border-gold-400/50 bg-royal-900 text-white'
            }`}
          >
            <div className="grid gap-1">
              {item.title && <p className="text-sm font-semibold">{item.title}</p>}
              {item.description && <p className="text-sm opacity-90">{item.description}</p>}
            </div>
            {item.action && (
              <button
                type="button"
                onClick={item.action.onClick}
                className="ml-auto rounded-md border border-white/30 px-3 py-1 text-sm"
              >
                {item.action.label}
              </button>
            )}
            <button
              type="button"
              aria-label="Close notification"
              onClick={() => dismiss(item.id)}
              className="absolute top-2 right-2 grid h-7 w-7 place-items-center rounded-md text-white/80 hover:bg-white/10 hover:text-white"
            >
              <svg
                aria-hidden="true"
                viewBox="0 0 24 24"
                className="h-4 w-4"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
              >
                <path d="M18 6 6 18M6 6l12 12" />
              </svg>
            </button>
          </div>
        ))}
    </section>
  );
}
