import { useId, useState, type ReactNode } from 'react';
import { DayBars } from './day-bars';

// A bar chart per UTC day (drawn by DayBars, with visx), hidden from screen readers, with the same numbers
// as a table that is always in the page for them and shown on demand to everyone.

/** ChartSeries is one coloured part of each day's bar. */
export interface ChartSeries {
  label: string;
  values: number[];
  /** className colours the bars (a Tailwind fill class). */
  className: string;
}

const PALETTE = ['fill-gold-400', 'fill-sky-400', 'fill-emerald-400', 'fill-rose-400', 'fill-violet-400'];
/** seriesColour gives the n-th series a colour, the last one shared by the rest. */
export const seriesColour = (index: number) =>
  PALETTE[Math.min(index, PALETTE.length - 1)] ?? 'fill-gray-400';

/**
 * DayChart draws days as bars: `stack` piles the series, `overlap` draws each over the previous one,
 * narrower (views, then visitors). A `line` (the daily budget) is drawn across when given.
 */
export function DayChart(props: {
  title: string;
  days: string[];
  series: ChartSeries[];
  mode: 'stack' | 'overlap';
  line?: { label: string; value: number } | undefined;
  extraColumns?: { label: string; values: ReactNode[] }[];
}) {
  const { days, series, mode, line } = props;
  const [showTable, setShowTable] = useState(false);
  const tableId = useId();

  return (
    <figure className="mt-3">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-gray-200">
        {series.map((s) => (
          <span key={s.label} className="flex items-center gap-1">
            <svg width="10" height="10" aria-hidden="true">
              <rect width="10" height="10" className={s.className} />
            </svg>
            {s.label}
          </span>
        ))}
        {line && <span>— {line.label}</span>}
        <button
          type="button"
          className="ml-auto rounded border border-royal-600 px-2 py-0.5"
          aria-expanded={showTable}
          aria-controls={tableId}
          onClick={() => setShowTable((shown) => !shown)}
        >
          {showTable ? 'Hide table' : 'Show table'}
        </button>
      </div>
      <DayBars title={props.title} days={days} series={series} mode={mode} line={line} />
      {/* Focusable when shown, so a keyboard can scroll a long table (90 days). */}
      <div
        id={tableId}
        className={showTable ? 'mt-3 max-h-80 overflow-auto' : 'sr-only'}
        tabIndex={showTable ? 0 : undefined}
        role={showTable ? 'group' : undefined}
        aria-label={showTable ? `${props.title} table` : undefined}
      >
        <table className="text-left text-sm">
          <caption className="sr-only">{props.title}, per day (UTC)</caption>
          <thead>
            <tr>
              <th scope="col" className="pr-6 text-gray-300">
                Day
              </th>
              {series.map((s) => (
                <th key={s.label} scope="col" className="pr-6 text-gray-300">
                  {s.label}
                </th>
              ))}
              {props.extraColumns?.map((column) => (
                <th key={column.label} scope="col" className="pr-6 text-gray-300">
                  {column.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {days.map((day, i) => (
              <tr key={day} data-day={day}>
                <th scope="row" className="pr-6 font-normal">
                  {day}
                </th>
                {series.map((s) => (
                  <td key={s.label} className="pr-6">
                    {s.values[i] ?? 0}
                  </td>
                ))}
                {props.extraColumns?.map((column) => (
                  <td key={column.label} className="pr-6">
                    {column.values[i]}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
