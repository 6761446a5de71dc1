import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';

// Toasts: a short message for the result of an action, read out politely and gone after a few seconds.

interface Toast {
  id: number;
  text: string;
  tone: 'success' | 'error';
}

type ShowToast = (text: string, tone?: Toast['tone']) => void;

const ToastContext = createContext<ShowToast>(() => undefined);

const TOAST_MS = 6000;

/** useToast returns the function that shows a toast. */
export const useToast = () => useContext(ToastContext);

/** ToastProvider holds the toasts and renders their live region. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const show = useCallback<ShowToast>((text, tone = 'success') => {
    const id = Date.now() + Math.random();
    setToasts((current) => [...current, { id, text, tone }]);
    setTimeout(() => setToasts((current) => current.filter((toast) => toast.id !== id)), TOAST_MS);
  }, []);
  const value = useMemo(() => show, [show]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <div
        role="status"
        aria-live="polite"
        className="pointer-events-none fixed right-4 bottom-4 left-4 flex flex-col items-end gap-2"
      >
        {toasts.map((toast) => (
          <p
            key={toast.id}
            className={`pointer-events-auto max-w-md rounded-lg px-4 py-3 shadow-lg ${
              toast.tone === 'success' ? 'bg-emerald-200 text-emerald-950' : 'bg-red-200 text-red-950'
            }`}
          >
            {toast.text}
          </p>
        ))}
      </div>
    </ToastContext.Provider>
  );
}
