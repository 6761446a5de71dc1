import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ConsoleUserRow, UserFields } from '../api/console-api';
import { useConsoleSession } from '../components/console-context';
import { ConsoleDialog } from '../components/console-dialog';
import { EditUserDialog, USERS_KEY } from './user-forms';
import { toast } from '../../../components/ui/use-toast';

const ACTION = 'underline disabled:opacity-70';
const DANGER = 'mt-4 rounded bg-red-200 px-4 py-2 font-semibold text-red-950 disabled:opacity-70';

/** DisableDialog asks before disabling a user (they can no longer sign in); enabling needs no question. */
function DisableDialog({ user, onDone }: { user: ConsoleUserRow; onDone: () => Promise<void> }) {
  const { api } = useConsoleSession();
  const [open, setOpen] = useState(false);
  const disable = useMutation({
    mutationFn: () => api.changeUser(user.id, { disabled: true }),
    onSuccess: async () => {
      setOpen(false);
      toast({ description: `${user.email} is disabled: they can no longer sign in.` });
      await onDone();
    },
  });
  return (
    <ConsoleDialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        disable.reset();
      }}
      title={`Disable ${user.email}?`}
      description="They are signed out and can no longer sign in until an admin enables them again."
      trigger={
        <button type="button" className={ACTION} aria-label={`Disable ${user.email}`}>
          Disable
        </button>
      }
    >
      {disable.error && (
        <p role="alert" className="mt-3 text-red-200">
          {disable.error.message}
        </p>
      )}
      <button type="button" className={DANGER} disabled={disable.isPending} onClick={() => disable.mutate()}>
        Yes, disable {user.email}
      </button>
    </ConsoleDialog>
  );
}

/**
 * UserRowActions are one user's actions: edit role and custom fields, disable or enable, mail a password
 * reset, and view the Data page as them. An admin is not offered to disable themself (the server refuses).
 */
export function UserRowActions({ user, fields }: { user: ConsoleUserRow; fields: UserFields }) {
  const { api, user: me } = useConsoleSession();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: USERS_KEY });
  const failed = (what: string) => (failure: Error) =>
    toast({ description: `Could not ${what} ${user.email}: ${failure.message}`, variant: 'destructive' });
  const enable = useMutation({
    mutationFn: () => api.changeUser(user.id, { disabled: false }),
    onSuccess: async () => {
      toast({ description: `${user.email} is enabled: they can sign in again.` });
      await refresh();
    },
    onError: failed('enable'),
  });
  const reset = useMutation({
    mutationFn: () => api.mailPasswordReset(user.id),
    onSuccess: () => toast({ description: `A password reset link was mailed to ${user.email}.` }),
    onError: failed('mail a reset to'),
  });
  return (
    <div className="flex flex-wrap gap-x-4 gap-y-1">
      <EditUserDialog user={user} fields={fields} />
      {user.disabled ? (
        <button
          type="button"
          className={ACTION}
          disabled={enable.isPending}
          aria-label={`Enable ${user.email}`}
          onClick={() => enable.mutate()}
        >
          Enable
        </button>
      ) : (
        user.email !== me.email && <DisableDialog user={user} onDone={refresh} />
      )}
      {!user.disabled && (
        <button
          type="button"
          className={ACTION}
          disabled={reset.isPending}
          aria-label={`Mail a password reset to ${user.email}`}
          onClick={() => reset.mutate()}
        >
          Mail a password reset
        </button>
      )}
      <a
        href={`/_/data?as=${encodeURIComponent(user.id)}`}
        className={ACTION}
        aria-label={`View as this user: ${user.email}`}
      >
        View as this user
      </a>
    </div>
  );
}
