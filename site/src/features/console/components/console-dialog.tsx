import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';

/**
 * ConsoleDialog is a modal form on Radix's dialog: focus moves in, stays in and returns to the trigger,
 * Escape closes it, and the title and description name it for screen readers. The parent owns `open`, so
 * a form closes it only once the server said yes.
 */
export function ConsoleDialog({
  trigger,
  title,
  description,
  open,
  onOpenChange,
  children,
  closeLabel = 'Cancel',
}: {
  trigger: ReactNode;
  title: string;
  description: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  children: ReactNode;
  /** closeLabel names the close button (a dialog that only shows something is closed, not cancelled). */
  closeLabel?: string;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Trigger asChild>{trigger}</Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/70" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 max-h-[90vh] w-[min(32rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-lg border border-royal-600 bg-royal-950 p-5 text-white shadow-xl">
          <Dialog.Title className="text-lg font-semibold text-gold-100">{title}</Dialog.Title>
          <Dialog.Description className="mt-1 text-gray-200">{description}</Dialog.Description>
          {children}
          <Dialog.Close className="mt-4 underline">{closeLabel}</Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
