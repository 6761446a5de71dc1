// The console's Analytics page: the last 7, 30 or 90 UTC days (today included) of page views, events, LLM
// tokens and mails, aggregated by the store's SQL. Days with nothing are filled in as zeros here, so every
// chart and its table has one row per day.
import type { AnalyticsChartsStore, DayNameCount } from '../../store/analytics-charts-store';

/** ANALYTICS_RANGES are the windows the page offers, in days. */
export const ANALYTICS_RANGES = [7, 30, 90] as const;
export type AnalyticsRange = (typeof ANALYTICS_RANGES)[number];

const TOP_LIMIT = 10;
// Distinct event names or models per day are bounded, so a flood of names cannot make the answer huge.
const SERIES_ROW_LIMIT = 5000;
const DAY_MS = 86_400_000;

/** NamedSeries is per-day counts split by name (an event name, a model), with each day's total. */
export interface NamedSeries {
  names: string[];
  days: { day: string; total: number; byName: Record<string, number> }[];
}

/** AnalyticsCharts is what the Analytics page draws. */
export interface AnalyticsCharts {
  days: number;
  from: string;
  to: string;
  views: { day: string; views: number; visitors: number }[];
  topPages: { key: string; count: number }[];
  topReferrers: { key: string; count: number }[];
  events: NamedSeries;
  tokens: NamedSeries & { dailyBudget: number };
  mails: { day: string; count: number }[];
}

/** dayKeys lists the UTC days from `from` (a midnight) for `count` days, as YYYY-MM-DD. */
export function dayKeys(from: Date, count: number): string[] {
  return Array.from({ length: count }, (_, i) =>
    new Date(from.getTime() + i * DAY_MS).toISOString().slice(0, 10),
  );
}

function seriesOf(days: string[], rows: DayNameCount[]): NamedSeries {
  const names = [...new Set(rows.map((row) => row.name))].sort();
  const byDay = new Map(days.map((day) => [day, { day, total: 0, byName: {} as Record<string, number> }]));
  for (const row of rows) {
    const entry = byDay.get(row.day);
    if (!entry) continue;
    entry.byName[row.name] = row.count;
    entry.total += row.count;
  }
  return { names, days: [...byDay.values()] };
}

function filled<T extends { day: string }>(days: string[], rows: T[], zero: Omit<T, 'day'>): T[] {
  const byDay = new Map(rows.map((row) => [row.day, row]));
  return days.map((day) => byDay.get(day) ?? ({ ...zero, day } as T));
}

/** createAnalyticsCharts reads the charts of one app; now is injectable for tests. */
export function createAnalyticsCharts(deps: {
  store: AnalyticsChartsStore;
  dailyTokenBudget: number;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());
  return {
    async read(appId: string, range: AnalyticsRange): Promise<AnalyticsCharts> {
      const today = new Date(now());
      today.setUTCHours(0, 0, 0, 0);
      const from = new Date(today.getTime() - (range - 1) * DAY_MS);
      const to = new Date(today.getTime() + DAY_MS);
      const window = { appId, from: from.toISOString(), to: to.toISOString() };
      const days = dayKeys(from, range);
      const [views, topPages, topReferrers, events, tokens, mails] = await Promise.all([
        deps.store.viewsByDay(window),
        deps.store.topPages(window, TOP_LIMIT),
        deps.store.topReferrers(window, TOP_LIMIT),
        deps.store.eventsByDay(window, SERIES_ROW_LIMIT),
        deps.store.tokensByDay(window, SERIES_ROW_LIMIT),
        deps.store.mailsByDay(window),
      ]);
      return {
        days: range,
        from: window.from,
        to: window.to,
        views: filled(days, views, { views: 0, visitors: 0 }),
        topPages,
        topReferrers,
        events: seriesOf(days, events),
        tokens: { ...seriesOf(days, tokens), dailyBudget: deps.dailyTokenBudget },
        mails: filled(days, mails, { count: 0 }),
      };
    },
  };
}

export type AnalyticsChartsReader = ReturnType<typeof createAnalyticsCharts>;
