import { useNavigate } from '@tanstack/react-router';
import type { FormEvent } from 'react';
import { BUTTON, FIELD } from '../../components/sign-in-screen';
import { FILTERS_OF, localInputOf, type LogTab, type LogsSearch } from './logs-search';

const LABELS: Record<string, string> = {
  function: 'Function',
  request_id: 'Request id',
  page: 'Page',
  user: 'User (id or email)',
};

/**
 * labelOf is a filter's label on tab: calls and page views keep the user's id only, the audit log the
 * actor's email too.
 */
const labelOf = (tab: LogTab, name: string) =>
  tab !== 'audit' && name === 'user' ? 'User id' : LABELS[name];

/** LogFilters is the tab's filter form; applying it writes the filters to the URL (a permalink). */
export function LogFilters({ tab, search }: { tab: LogTab; search: LogsSearch }) {
  const navigate = useNavigate();
  const filters = FILTERS_OF[tab];

  function apply(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const value = (name: string) => String(data.get(name) ?? '').trim() || undefined;
    const time = (name: string) => {
      const local = value(name);
      return local ? new Date(local).toISOString() : undefined;
    };
    const next: LogsSearch = { tab, from: time('from'), to: time('to') };
    next.function = filters.includes('function') ? value('function') : undefined;
    next.request_id = filters.includes('request_id') ? value('request_id') : undefined;
    next.page = filters.includes('page') ? value('page') : undefined;
    next.user = filters.includes('user') ? value('user') : undefined;
    const status = value('status');
    next.status = status === 'ok' || status === 'error' ? status : undefined;
    void navigate({ to: '/logs', search: next });
  }

  return (
    <form
      role="search"
      aria-label="Filter the logs"
      onSubmit={apply}
      className="mt-4 flex flex-wrap items-end gap-3"
    >
      <label className="flex flex-col gap-1">
        From
        <input type="datetime-local" name="from" defaultValue={localInputOf(search.from)} className={FIELD} />
      </label>
      <label className="flex flex-col gap-1">
        To
        <input type="datetime-local" name="to" defaultValue={localInputOf(search.to)} className={FIELD} />
      </label>
      {filters.map((name) =>
        name === 'status' ? (
          <label key={name} className="flex flex-col gap-1">
            Status
            <select name="status" defaultValue={search.status ?? ''} className={FIELD}>
              <option value="">Any</option>
              <option value="ok">Succeeded (below 400)</option>
              <option value="error">Failed (400 and above)</option>
            </select>
          </label>
        ) : (
          <label key={name} className="flex flex-col gap-1">
            {labelOf(tab, name)}
            <input
              name={name}
              defaultValue={typeof search[name] === 'string' ? search[name] : ''}
              autoComplete="off"
              spellCheck={false}
              className={FIELD}
            />
          </label>
        ),
      )}
      <button type="submit" className={BUTTON}>
        Apply filters
      </button>
      <button
        type="button"
        className="underline"
        onClick={() => void navigate({ to: '/logs', search: { tab } })}
      >
        Clear
      </button>
    </form>
  );
}
