import { useInfiniteQuery } from '@tanstack/react-query';
import { Link, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { useConsoleSession } from '../../components/console-context';
import { EmptyState, ErrorState, LoadingState, PageHeading } from '../../components/page-states';
import { LogFilters } from './log-filters';
import { AuditTable, FunctionCallsTable, PageViewsTable } from './log-tables';
import { concatRows, logPagesQuery, type LogRows } from './logs-api';
import { LOG_TABS, queryOf, type LogTab, type LogsSearch } from './logs-search';
import { useLiveRows, type LiveState } from './use-live-rows';

const TAB_LABELS: Record<LogTab, string> = {
  functions: 'Function calls',
  'page-views': 'Page views',
  audit: 'Audit log',
};

const LIVE_TEXT: Record<LiveState, string> = {
  off: 'Not following new entries.',
  connecting: 'Connecting…',
  live: 'Following new entries live.',
  retrying: 'The live stream dropped: reconnecting…',
};

function Rows({ rows }: { rows: LogRows }) {
  if (rows.items.length === 0) return <EmptyState>No entries match these filters.</EmptyState>;
  if (rows.tab === 'functions') return <FunctionCallsTable calls={rows.items} />;
  if (rows.tab === 'page-views') return <PageViewsTable views={rows.items} />;
  return <AuditTable entries={rows.items} />;
}

/**
 * LogsPage shows function calls, page views and the audit log, one tab each, filtered by the URL's search
 * params (a permalink), newest first, paged by the server's keyset cursor; new entries arrive live.
 */
export function LogsPage() {
  const { api } = useConsoleSession();
  const search: LogsSearch = useSearch({ strict: false });
  const tab = search.tab ?? 'functions';
  const query = queryOf(search, tab);
  const [follow, setFollow] = useState(true);
  const logs = useInfiniteQuery(logPagesQuery(api, tab, query));
  // The stream opens once the first page is in, so it never competes with the first screen.
  const following = follow && logs.isSuccess;
  const live = useLiveRows(api, tab, following, query as LogsSearch);

  return (
    <>
      <PageHeading>Logs</PageHeading>
      <p className="mt-2 max-w-2xl text-gray-200">
        What the app&apos;s backend functions did, which pages were viewed, and every change an operator made.
        Filters are kept in the address, so a filtered view can be shared.
      </p>
      <nav aria-label="Logs" className="mt-4 flex flex-wrap gap-2">
        {LOG_TABS.map((name) => (
          <Link
            key={name}
            to="/logs"
            search={{ tab: name }}
            aria-current={name === tab ? 'page' : undefined}
            className={`rounded px-3 py-1 ${name === tab ? 'bg-royal-700 font-semibold text-gold-100' : 'underline'}`}
          >
            {TAB_LABELS[name]}
          </Link>
        ))}
      </nav>
      <LogFilters key={JSON.stringify(search)} tab={tab} search={search} />
      <div className="mt-3 flex flex-wrap items-center gap-4">
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={follow} onChange={(event) => setFollow(event.target.checked)} />
          Follow new entries live
        </label>
        <p role="status" className="text-gray-300">
          {LIVE_TEXT[follow && live.state === 'off' ? 'connecting' : live.state]}
        </p>
      </div>
      {logs.isPending && <LoadingState what={`the ${TAB_LABELS[tab].toLowerCase()}`} />}
      {logs.isError && <ErrorState error={logs.error} retry={() => void logs.refetch()} />}
      {/* The live rows (newest first) before the loaded pages, each row once. */}
      {logs.data && <Rows rows={concatRows(tab, live.rows, ...logs.data.pages)} />}
      {logs.hasNextPage && (
        <button
          type="button"
          className="mt-4 underline"
          disabled={logs.isFetchingNextPage}
          onClick={() => void logs.fetchNextPage()}
        >
          {logs.isFetchingNextPage ? 'Loading older entries…' : 'Load older entries'}
        </button>
      )}
    </>
  );
}
