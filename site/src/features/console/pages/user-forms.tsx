import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { ConsoleUserRow, UserChange, UserField, UserFields } from '../api/console-api';
import { useConsoleSession } from '../components/console-context';
import { ConsoleDialog } from '../components/console-dialog';
import { BUTTON, FIELD } from '../components/sign-in-screen';
import { toast } from '../../../components/ui/use-toast';

// The Users page's dialogs: invite, and edit a user's role and custom fields. The server validates (the
// app's roles, User.jsonc's schema); its message is shown in the dialog, which stays open to fix it.

/** USERS_KEY is every query of the Users page, refreshed after a change. */
export const USERS_KEY = ['console', 'users'];

function ServerError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p role="alert" className="mt-3 text-red-200">
      {message}
    </p>
  );
}

function RoleSelect({ roles, value }: { roles: string[]; value: string }) {
  return (
    <label className="flex flex-col gap-1">
      Role
      <select name="role" defaultValue={value} className={FIELD}>
        {[...new Set([...roles, value])].map((role) => (
          <option key={role} value={role}>
            {role}
          </option>
        ))}
      </select>
    </label>
  );
}

/** InviteDialog invites a user by email with one of the app's roles; they get the invitation mail. */
export function InviteDialog({ fields }: { fields: UserFields }) {
  const { api } = useConsoleSession();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const invite = useMutation({
    mutationFn: ({ email, role }: { email: string; role: string }) => api.inviteUser(email, role),
    onSuccess: async (_answer, { email, role }) => {
      setOpen(false);
      toast({ description: `${email} is invited as ${role}: an invitation mail is on its way.` });
      await queryClient.invalidateQueries({ queryKey: USERS_KEY });
    },
  });
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    invite.mutate({ email: String(data.get('email') ?? '').trim(), role: String(data.get('role') ?? '') });
  }
  return (
    <ConsoleDialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        invite.reset();
      }}
      title="Invite a user"
      description="They get a mail with a link to set their password (valid 7 days)."
      trigger={
        <button type="button" className={`${BUTTON} mt-4`}>
          Invite a user
        </button>
      }
    >
      <form onSubmit={submit} className="mt-4 flex flex-col gap-3">
        <label className="flex flex-col gap-1">
          Email
          <input name="email" type="email" required maxLength={254} autoComplete="off" className={FIELD} />
        </label>
        <RoleSelect roles={fields.roles} value={fields.default_role} />
        <ServerError message={invite.error?.message ?? null} />
        <button type="submit" disabled={invite.isPending} className={`${BUTTON} self-start`}>
          {invite.isPending ? 'Inviting…' : 'Send invitation'}
        </button>
      </form>
    </ConsoleDialog>
  );
}

function FieldInput({ field, value }: { field: UserField; value: unknown }) {
  const name = `field:${field.name}`;
  const hint = field.description ? <span className="text-sm text-gray-300">{field.description}</span> : null;
  if (field.type === 'boolean') {
    return (
      <label className="flex items-center gap-2">
        <input name={name} type="checkbox" defaultChecked={value === true} />
        {field.name} {hint}
      </label>
    );
  }
  const text =
    value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  return (
    <label className="flex flex-col gap-1">
      {field.name} {hint}
      {field.enum ? (
        <select name={name} defaultValue={text} className={FIELD}>
          <option value="">Not set</option>
          {field.enum.map((choice) => (
            <option key={String(choice)} value={String(choice)}>
              {String(choice)}
            </option>
          ))}
        </select>
      ) : (
        <input
          name={name}
          type={field.type === 'integer' || field.type === 'number' ? 'number' : 'text'}
          step={field.type === 'integer' ? 1 : 'any'}
          defaultValue={text}
          maxLength={field.maxLength}
          className={FIELD}
        />
      )}
    </label>
  );
}

/** valueOf reads a field from the form as its declared type; undefined when left empty. */
function valueOf(field: UserField, data: FormData): unknown {
  const raw = data.get(`field:${field.name}`);
  if (field.type === 'boolean') return raw === 'on';
  const text = String(raw ?? '');
  if (text === '') return undefined;
  if (field.type === 'integer' || field.type === 'number') return Number(text);
  if (field.type === 'object' || field.type === 'array') {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text; // the server names the field
    }
  }
  return text;
}

/** changesOf is what the form changed: the role if another, the custom fields whose value differs. */
function changesOf(user: ConsoleUserRow, fields: UserFields, data: FormData): UserChange {
  const change: UserChange = {};
  const role = String(data.get('role') ?? user.role);
  if (role !== user.role) change.role = role;
  const changed = fields.fields
    .map((field) => [field.name, valueOf(field, data)] as const)
    .filter(([name, value]) => {
      const before = user.custom[name];
      if (value === undefined || (value === false && before === undefined)) return false;
      return JSON.stringify(value) !== JSON.stringify(before);
    });
  if (changed.length > 0) change.data = Object.fromEntries(changed);
  return change;
}

/** EditUserDialog changes a user's role and custom fields, as User.jsonc declares them. */
export function EditUserDialog({ user, fields }: { user: ConsoleUserRow; fields: UserFields }) {
  const { api } = useConsoleSession();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const save = useMutation({
    mutationFn: (change: UserChange) => api.changeUser(user.id, change),
    onSuccess: async () => {
      setOpen(false);
      toast({ description: `${user.email} is saved.` });
      await queryClient.invalidateQueries({ queryKey: USERS_KEY });
    },
  });
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const change = changesOf(user, fields, new FormData(event.currentTarget));
    if (Object.keys(change).length === 0) {
      setOpen(false);
      toast({ description: `Nothing to save for ${user.email}.` });
      return;
    }
    save.mutate(change);
  }
  return (
    <ConsoleDialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        save.reset();
      }}
      title={`Edit ${user.email}`}
      description="The role and the custom fields your User.jsonc declares, checked by the server's schema."
      trigger={
        <button type="button" className="underline" aria-label={`Edit ${user.email}`}>
          Edit
        </button>
      }
    >
      <form onSubmit={submit} className="mt-4 flex flex-col gap-3">
        <RoleSelect roles={fields.roles} value={user.role} />
        {fields.fields.map((field) => (
          <FieldInput key={field.name} field={field} value={user.custom[field.name]} />
        ))}
        <ServerError message={save.error?.message ?? null} />
        <button type="submit" disabled={save.isPending} className={`${BUTTON} self-start`}>
          {save.isPending ? 'Saving…' : 'Save'}
        </button>
      </form>
    </ConsoleDialog>
  );
}
