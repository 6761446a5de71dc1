import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { UserFields, UsersPage as UsersAnswer, UsersQuery } from '../api/console-api';
import { useConsoleSession } from '../components/console-context';
import { EmptyState, ErrorState, LoadingState, PageHeading } from '../components/page-states';
import { BUTTON, FIELD } from '../components/sign-in-screen';
import { InviteDialog, USERS_KEY } from './user-forms';
import { UserRowActions } from './user-row-actions';

const COLUMNS = [
  ['email', 'Email'],
  ['name', 'Name'],
  ['role', 'Role'],
  ['created', 'Created'],
] as const;

function SearchForm({
  roles,
  onSearch,
}: {
  roles: string[];
  onSearch: (change: Partial<UsersQuery>) => void;
}) {
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const text = (name: string) => String(data.get(name) ?? '');
    onSearch({ q: text('q').trim(), role: text('role'), status: text('status'), page: 1 });
  }
  return (
    <form role="search" onSubmit={submit} className="mt-4 flex flex-wrap items-end gap-3">
      <label className="flex flex-col gap-1">
        Search by email or name
        <input name="q" type="search" maxLength={200} className={FIELD} />
      </label>
      <label className="flex flex-col gap-1">
        Role
        <select name="role" className={FIELD}>
          <option value="">Any</option>
          {roles.map((role) => (
            <option key={role} value={role}>
              {role}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1">
        Status
        <select name="status" className={FIELD}>
          <option value="">Any</option>
          <option value="active">Active</option>
          <option value="disabled">Disabled</option>
        </select>
      </label>
      <button type="submit" className={BUTTON}>
        Search
      </button>
    </form>
  );
}

function UsersTable({
  answer,
  fields,
  query,
  change,
}: {
  answer: UsersAnswer;
  fields: UserFields;
  query: UsersQuery;
  change: (c: Partial<UsersQuery>) => void;
}) {
  const pages = Math.max(1, Math.ceil(answer.total / answer.page_size));
  const sortBy = (column: string) => change({ sort: query.sort === column ? `-${column}` : column, page: 1 });
  const ariaSort = (column: string) =>
    query.sort === column ? 'ascending' : query.sort === `-${column}` ? 'descending' : 'none';
  return (
    <>
      <div className="mt-4 overflow-x-auto">
        <table className="min-w-full text-left">
          <caption className="sr-only">The app&apos;s users</caption>
          <thead>
            <tr>
              {COLUMNS.map(([column, label]) => (
                <th key={column} scope="col" aria-sort={ariaSort(column)} className="pr-6 pb-1 text-gray-300">
                  <button
                    type="button"
                    onClick={() => sortBy(column)}
                    className="underline-offset-2 hover:underline"
                  >
                    {label}
                  </button>
                </th>
              ))}
              <th scope="col" className="pr-6 pb-1 text-gray-300">
                Status
              </th>
              <th scope="col" className="pb-1 text-gray-300">
                Actions
              </th>
            </tr>
          </thead>
          <tbody>
            {answer.users.map((user) => (
              <tr key={user.id} className="border-t border-royal-700">
                <td className="py-2 pr-6">{user.email}</td>
                <td className="py-2 pr-6">{user.full_name}</td>
                <td className="py-2 pr-6">{user.role}</td>
                <td className="py-2 pr-6">
                  <time dateTime={user.created_date}>{new Date(user.created_date).toLocaleDateString()}</time>
                </td>
                <td className="py-2 pr-6">{user.disabled ? 'Disabled' : 'Active'}</td>
                <td className="py-2">
                  <UserRowActions user={user} fields={fields} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <nav aria-label="Users pages" className="mt-4 flex items-center gap-3">
        <button
          type="button"
          className={BUTTON}
          disabled={query.page <= 1}
          onClick={() => change({ page: query.page - 1 })}
        >
          Previous
        </button>
        <p>
          Page {answer.page} of {pages} ({answer.total} users)
        </p>
        <button
          type="button"
          className={BUTTON}
          disabled={query.page >= pages}
          onClick={() => change({ page: query.page + 1 })}
        >
          Next
        </button>
      </nav>
    </>
  );
}

/**
 * UsersPage is the app's users, 50 a page, searched, sorted and filtered on the server (GET /admin/users),
 * with per-user actions (edit role and custom fields, disable or enable, mail a reset, view as) and invite.
 */
export function UsersPage() {
  const { api } = useConsoleSession();
  const [query, setQuery] = useState<UsersQuery>({ page: 1, q: '', sort: 'email', role: '', status: '' });
  const users = useQuery({
    queryKey: [...USERS_KEY, query],
    queryFn: () => api.users(query),
    placeholderData: keepPreviousData,
  });
  const fields = useQuery({ queryKey: [...USERS_KEY, 'fields'], queryFn: () => api.userFields() });
  const change = (part: Partial<UsersQuery>) => setQuery((current) => ({ ...current, ...part }));
  const failed = users.isError ? users : fields.isError ? fields : null;
  return (
    <>
      <PageHeading>Users</PageHeading>
      {fields.data && <InviteDialog fields={fields.data} />}
      <SearchForm roles={fields.data?.roles ?? []} onSearch={change} />
      {(users.isPending || fields.isPending) && <LoadingState what="the users" />}
      {failed && <ErrorState error={failed.error} retry={() => void failed.refetch()} />}
      {users.data && users.data.total === 0 && <EmptyState>No user matches.</EmptyState>}
      {users.data && fields.data && users.data.total > 0 && (
        <UsersTable answer={users.data} fields={fields.data} query={query} change={change} />
      )}
    </>
  );
}
