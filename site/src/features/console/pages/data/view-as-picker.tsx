import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useConsoleSession } from '../../components/console-context';
import { BUTTON, FIELD } from '../../components/sign-in-screen';

/** ViewAsPicker finds users by email or name (GET /admin/users) and picks one to view the data as. */
export function ViewAsPicker({ onPick }: { onPick: (id: string) => void }) {
  const { api } = useConsoleSession();
  const [q, setQ] = useState<string | null>(null);
  const users = useQuery({
    queryKey: ['console', 'view-as-users', q],
    queryFn: () => api.users({ page: 1, q: q ?? '', sort: 'email', role: '', status: '' }),
    enabled: q !== null,
  });
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setQ(String(new FormData(event.currentTarget).get('user') ?? '').trim());
  }
  return (
    <details className="mt-4">
      <summary className="cursor-pointer">View as user…</summary>
      <form onSubmit={submit} className="mt-2 flex flex-wrap items-end gap-3">
        <label className="flex flex-col gap-1">
          Find a user by email or name
          <input name="user" type="search" maxLength={200} className={FIELD} />
        </label>
        <button type="submit" className={BUTTON}>
          Find
        </button>
      </form>
      {users.isError && (
        <p role="alert" className="mt-2 text-red-200">
          Could not search users: {users.error.message}
        </p>
      )}
      {users.data && (
        <ul aria-label="Users found" className="mt-2 flex flex-col gap-1">
          {users.data.users.length === 0 && <li>No user matches.</li>}
          {users.data.users.map((user) => (
            <li key={user.id}>
              <button type="button" onClick={() => onPick(user.id)} className="underline">
                View as {user.email}
              </button>
              {user.disabled ? ' (disabled)' : ''}
            </li>
          ))}
        </ul>
      )}
    </details>
  );
}
