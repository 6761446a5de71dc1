import { useState, type FormEvent } from 'react';
import { BUTTON, FIELD } from '../../components/sign-in-screen';
import { MAX_SEARCH_LENGTH, parseFilter } from './record-query';

/** GridQuery is what the form applies: the quick search's text and the filter as an object. */
export interface GridQuery {
  search: string;
  filter: Record<string, unknown>;
}

/**
 * GridQueryForm is the quick search and the filter box (the SDK's query language as JSON). A filter that
 * does not parse, or that the server refused (serverError), is said next to the box.
 */
export function GridQueryForm({
  onApply,
  serverError,
  searchable,
}: {
  onApply: (query: GridQuery) => void;
  serverError: string | null;
  searchable: boolean;
}) {
  const [parseError, setParseError] = useState<string | null>(null);
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const parsed = parseFilter(String(data.get('filter') ?? ''));
    if (!parsed.ok) {
      setParseError(parsed.message);
      return;
    }
    setParseError(null);
    onApply({ search: String(data.get('search') ?? ''), filter: parsed.value });
  }
  const error = parseError ?? serverError;
  return (
    <form role="search" onSubmit={submit} className="mt-4 flex flex-wrap items-start gap-3">
      <label className="flex flex-col gap-1">
        Quick search
        <input
          name="search"
          type="search"
          maxLength={MAX_SEARCH_LENGTH}
          disabled={!searchable}
          className={FIELD}
        />
      </label>
      <label className="flex min-w-64 flex-1 flex-col gap-1">
        Filter (JSON)
        <input
          name="filter"
          type="text"
          spellCheck={false}
          placeholder='{"status":"open","priority":{"$gte":2}}'
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'grid-filter-error' : undefined}
          className={`${FIELD} font-mono`}
        />
        {error && (
          <span id="grid-filter-error" role="alert" className="text-sm text-red-200">
            {error}
          </span>
        )}
      </label>
      <button type="submit" className={`${BUTTON} mt-7`}>
        Apply
      </button>
    </form>
  );
}
