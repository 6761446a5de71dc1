import { useEffect, useId, useRef, type ReactNode } from 'react';

/** SECONDARY is a quiet button beside a page's gold one. */
export const SECONDARY =
  'rounded border border-royal-600 px-4 py-2 text-gray-100 hover:bg-royal-700 disabled:opacity-60';
/** DANGER is a button that deletes. */
export const DANGER = 'rounded bg-red-200 px-4 py-2 font-semibold text-red-950 hover:bg-red-100';

/**
 * ModalDialog is a native modal `<dialog>`: focus moves in and stays while it is open, Escape closes it,
 * the page behind is inert. Its content is rendered only while open, so each opening starts fresh.
 */
export function ModalDialog({
  open,
  onClose,
  title,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      if (typeof element.showModal === 'function') element.showModal();
      else element.setAttribute('open', '');
    } else if (!open && element.open) element.close();
  }, [open]);
  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      onClose={() => {
        if (open) onClose();
      }}
      className="m-auto w-[min(42rem,calc(100vw-1rem))] max-h-[calc(100dvh-1rem)] overflow-y-auto rounded-lg border border-royal-600 bg-royal-900 p-4 text-gray-100 backdrop:bg-black/70 sm:p-6"
    >
      {open && (
        <>
          <h2 id={titleId} className="text-lg font-semibold text-gold-100">
            {title}
          </h2>
          {children}
        </>
      )}
    </dialog>
  );
}

/** ConfirmDialog asks before something that cannot be undone: the question, Cancel and the action. */
export function ConfirmDialog({
  open,
  question,
  detail,
  action,
  busy,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  question: string;
  detail: string;
  action: string;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <ModalDialog open={open} onClose={onCancel} title={question}>
      <p className="mt-2 text-gray-200">{detail}</p>
      <div className="mt-4 flex flex-wrap justify-end gap-3">
        <button type="button" className={SECONDARY} onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className={DANGER} disabled={busy} onClick={onConfirm}>
          {busy ? 'Deleting…' : action}
        </button>
      </div>
    </ModalDialog>
  );
}
