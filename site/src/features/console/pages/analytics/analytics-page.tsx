import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useConsoleSession } from '../../components/console-context';
import { EmptyState, ErrorState, LoadingState, PageHeading } from '../../components/page-states';
import {
  ANALYTICS_RANGES,
  fetchAnalytics,
  type Analytics,
  type AnalyticsRange,
  type NamedSeries,
} from './analytics-api';
import { DayChart, seriesColour, type ChartSeries } from './day-chart';

// At most this many names get their own colour in a split chart; the rest are summed as "other".
const MAX_NAMED_SERIES = 5;

/** namedSeriesOf turns a split-by-name series into chart series, the smallest names summed as "other". */
export function namedSeriesOf(series: NamedSeries): ChartSeries[] {
  const totals = series.names
    .map((name) => ({ name, total: series.days.reduce((sum, day) => sum + (day.byName[name] ?? 0), 0) }))
    .sort((a, b) => b.total - a.total || a.name.localeCompare(b.name));
  const kept = totals.length > MAX_NAMED_SERIES ? totals.slice(0, MAX_NAMED_SERIES - 1) : totals;
  const chart = kept.map(({ name }, i) => ({
    label: name,
    values: series.days.map((day) => day.byName[name] ?? 0),
    className: seriesColour(i),
  }));
  if (kept.length < totals.length) {
    const keptNames = new Set(kept.map((entry) => entry.name));
    chart.push({
      label: 'other',
      values: series.days.map((day) =>
        Object.entries(day.byName).reduce((sum, [name, n]) => (keptNames.has(name) ? sum : sum + n), 0),
      ),
      className: seriesColour(MAX_NAMED_SERIES - 1),
    });
  }
  return chart;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = `analytics-${title.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <section aria-labelledby={id} className="mt-8 rounded-lg border border-royal-700 p-4">
      <h2 id={id} className="text-lg font-semibold text-gold-100">
        {title}
      </h2>
      {children}
    </section>
  );
}

function TopList({
  title,
  rows,
  keyLabel,
}: {
  title: string;
  rows: Analytics['topPages'];
  keyLabel: string;
}) {
  return (
    <Section title={title}>
      {rows.length === 0 ? (
        <EmptyState>None in this period.</EmptyState>
      ) : (
        <table className="mt-3 w-full text-left text-sm">
          <caption className="sr-only">{title}</caption>
          <thead>
            <tr>
              <th scope="col" className="pb-1 text-gray-300">
                {keyLabel}
              </th>
              <th scope="col" className="pb-1 text-right text-gray-300">
                Views
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.key}>
                <td className="break-all pr-4">{row.key}</td>
                <td className="text-right">{row.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}

function AnalyticsBody({ data }: { data: Analytics }) {
  const days = data.views.map((row) => row.day);
  const eventSeries = namedSeriesOf(data.events);
  const tokenSeries = namedSeriesOf(data.tokens);
  const totalViews = data.views.reduce((sum, row) => sum + row.views, 0);
  return (
    <>
      <Section title="Page views and visitors">
        <p className="mt-1 text-sm text-gray-300">
          {totalViews} views in {data.days} days. Visitors are counted per day (the visitor key changes
          daily).
        </p>
        <DayChart
          title="Page views and visitors"
          days={days}
          mode="overlap"
          series={[
            { label: 'Views', values: data.views.map((row) => row.views), className: 'fill-gold-400' },
            { label: 'Visitors', values: data.views.map((row) => row.visitors), className: 'fill-sky-400' },
          ]}
        />
      </Section>
      <div className="grid gap-x-6 lg:grid-cols-2">
        <TopList title="Top pages" rows={data.topPages} keyLabel="Page" />
        <TopList title="Top referrers" rows={data.topReferrers} keyLabel="Host" />
      </div>
      <Section title="Analytics events">
        {eventSeries.length === 0 ? (
          <EmptyState>No events in this period (the SDK's analytics.track sends them).</EmptyState>
        ) : (
          <DayChart title="Analytics events" days={days} mode="stack" series={eventSeries} />
        )}
      </Section>
      <Section title="LLM tokens">
        <p className="mt-1 text-sm text-gray-300">
          Per model, against the daily budget of {data.tokens.dailyBudget} tokens (LLM_DAILY_TOKEN_BUDGET).
        </p>
        {tokenSeries.length === 0 ? (
          <EmptyState>No LLM calls in this period.</EmptyState>
        ) : (
          <DayChart
            title="LLM tokens"
            days={days}
            mode="stack"
            series={tokenSeries}
            line={{ label: 'daily budget', value: data.tokens.dailyBudget }}
            extraColumns={[
              {
                label: 'Share of budget',
                values: data.tokens.days.map(
                  (day) => `${((day.total / Math.max(1, data.tokens.dailyBudget)) * 100).toFixed(1)} %`,
                ),
              },
            ]}
          />
        )}
      </Section>
      <Section title="Mails sent">
        <DayChart
          title="Mails sent"
          days={days}
          mode="stack"
          series={[
            { label: 'Mails', values: data.mails.map((row) => row.count), className: 'fill-emerald-400' },
          ]}
        />
      </Section>
    </>
  );
}

/** AnalyticsPage charts the app's last 7, 30 or 90 days (GET /admin/analytics). */
export function AnalyticsPage() {
  const { api } = useConsoleSession();
  const [days, setDays] = useState<AnalyticsRange>(30);
  const analytics = useQuery({
    queryKey: ['console', 'analytics', days],
    queryFn: () => fetchAnalytics(api, days),
  });
  return (
    <>
      <PageHeading>Analytics</PageHeading>
      <fieldset className="mt-4 flex flex-wrap items-center gap-2">
        <legend className="sr-only">Period</legend>
        {ANALYTICS_RANGES.map((range) => (
          <button
            key={range}
            type="button"
            aria-pressed={days === range}
            onClick={() => setDays(range)}
            className={`rounded border px-3 py-1 ${days === range ? 'border-gold-400 bg-royal-700 text-gold-100' : 'border-royal-600'}`}
          >
            {range} days
          </button>
        ))}
        <span className="text-sm text-gray-300">UTC days, today included.</span>
      </fieldset>
      {analytics.isPending && <LoadingState what="the analytics" />}
      {analytics.isError && <ErrorState error={analytics.error} retry={() => void analytics.refetch()} />}
      {analytics.data && <AnalyticsBody data={analytics.data} />}
    </>
  );
}
