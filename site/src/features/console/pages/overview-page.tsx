import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { Overview } from '../api/console-api';
import { useConsoleSession } from '../components/console-context';
import { EmptyState, ErrorState, LoadingState, PageHeading } from '../components/page-states';
import { VISIBILITY_CHOICES } from './visibility-choices';

/** formatUptime says how long the server has run, in its two largest units. */
export function formatUptime(seconds: number): string {
  const units: [string, number][] = [
    ['d', 86400],
    ['h', 3600],
    ['min', 60],
    ['s', 1],
  ];
  const parts: string[] = [];
  let rest = Math.floor(seconds);
  for (const [unit, size] of units) {
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (count > 0 || (unit === 's' && parts.length === 0)) parts.push(`${count} ${unit}`);
  }
  return parts.slice(0, 2).join(' ');
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={`overview-${title}`} className="mt-8">
      <h2 id={`overview-${title}`} className="text-lg font-semibold text-gold-100">
        {title}
      </h2>
      {children}
    </section>
  );
}

function Facts({ rows }: { rows: [string, string][] }) {
  return (
    <dl className="mt-3 grid grid-cols-[minmax(8rem,max-content)_1fr] gap-x-6 gap-y-2">
      {rows.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="text-gray-300">{term}</dt>
          <dd className="break-words text-white">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function OverviewBody({ overview }: { overview: Overview }) {
  const { app, counts } = overview;
  return (
    <>
      <Section title="App">
        <Facts
          rows={[
            ['Name', app.name],
            ['App id', app.id],
            ['Visibility', VISIBILITY_CHOICES[app.visibility].label],
            ['Self-sign-up', app.selfSignup ? 'On' : 'Off'],
          ]}
        />
      </Section>
      <Section title="Data">
        <Facts rows={[['Users', String(counts.users)]]} />
        {counts.entities.length === 0 ? (
          <EmptyState>The project defines no entities.</EmptyState>
        ) : (
          <div className="mt-3 overflow-x-auto">
            <table className="min-w-[16rem] text-left">
              <caption className="sr-only">Records per entity</caption>
              <thead>
                <tr>
                  <th scope="col" className="pr-8 pb-1 text-gray-300">
                    Entity
                  </th>
                  <th scope="col" className="pb-1 text-gray-300">
                    Records
                  </th>
                </tr>
              </thead>
              <tbody>
                {counts.entities.map((entity) => (
                  <tr key={entity.name}>
                    <td className="pr-8">{entity.name}</td>
                    <td>{entity.records}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Section>
      <Section title="Server">
        <Facts
          rows={[
            ['Database', overview.database.detail],
            ['Realtime', overview.realtime],
            ['File storage', overview.fileStorage],
            ['LLM provider', overview.llm.detail],
            ['Mail', overview.mail.detail],
            ['Version', overview.version],
            ['Uptime', formatUptime(overview.uptimeSeconds)],
          ]}
        />
      </Section>
      <Section title="Warnings">
        {overview.warnings.length === 0 ? (
          <EmptyState>No warnings: the server started without any.</EmptyState>
        ) : (
          <ul className="mt-3 flex flex-col gap-3">
            {overview.warnings.map((warning) => (
              <li key={warning.message} className="rounded-lg border border-gold-400 bg-royal-900 p-3">
                <p className="text-white">{warning.message}</p>
                <p className="mt-1 text-gold-100">What to do: {warning.action}</p>
              </li>
            ))}
          </ul>
        )}
      </Section>
    </>
  );
}

/** OverviewPage shows the app and the server at a glance (GET /admin/overview). */
export function OverviewPage() {
  const { api } = useConsoleSession();
  const overview = useQuery({ queryKey: ['console', 'overview'], queryFn: () => api.overview() });
  return (
    <>
      <PageHeading>Overview</PageHeading>
      {overview.isPending && <LoadingState what="the overview" />}
      {overview.isError && <ErrorState error={overview.error} retry={() => void overview.refetch()} />}
      {overview.data && <OverviewBody overview={overview.data} />}
    </>
  );
}
