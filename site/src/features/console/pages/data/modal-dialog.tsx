import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';

/** SECONDARY is a quiet button beside a page's gold one. */
export const SECONDARY =
  'rounded border border-royal-600 px-4 py-2 text-gray-100 hover:bg-royal-700 disabled:opacity-60';
/** DANGER is a button that deletes. */
export const DANGER = 'rounded bg-red-200 px-4 py-2 font-semibold text-red-950 hover:bg-red-100';

/**
 * ModalDialog is the console's modal without a trigger of its own, on the same Radix dialog as
 * ConsoleDialog: focus moves in, stays in and returns, Escape closes it, the page behind is hidden from
 * assistive technology. Its content is mounted only while open, so each opening starts fresh.
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
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/70" />
        {/* No Description: the content says what it is (aria-describedby left unset on purpose). */}
        <Dialog.Content
          aria-describedby={undefined}
          className="fixed top-1/2 left-1/2 z-50 max-h-[calc(100dvh-1rem)] w-[min(42rem,calc(100vw-1rem))] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-lg border border-royal-600 bg-royal-900 p-4 text-gray-100 shadow-xl sm:p-6"
        >
          <Dialog.Title className="text-lg font-semibold text-gold-100">{title}</Dialog.Title>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
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
