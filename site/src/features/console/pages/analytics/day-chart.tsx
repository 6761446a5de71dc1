import { useId, useState, type ReactNode } from 'react';

// A plain SVG bar chart per UTC day (no chart library: the console stays lean), hidden from screen readers,
// with the same numbers as a table that is always in the page for them and shown on demand to everyone.

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

const WIDTH = 720;
const HEIGHT = 180;
const PAD_LEFT = 48;
const PAD_BOTTOM = 20;

/** niceMax rounds a maximum up to 1, 2 or 5 times a power of ten (at least 1), for the axis. */
export function niceMax(value: number): number {
  if (value <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 5, 10].find((factor) => factor * power >= value) ?? 10;
  return step * power;
}

/** shortNumber writes 1234 as 1.2k and 2500000 as 2.5M, for the axis. */
export function shortNumber(value: number): string {
  if (value >= 1e6) return `${+(value / 1e6).toFixed(1)}M`;
  if (value >= 1e3) return `${+(value / 1e3).toFixed(1)}k`;
  return String(value);
}

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
  const totals = days.map((_, i) =>
    mode === 'stack'
      ? series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0)
      : Math.max(0, ...series.map((s) => s.values[i] ?? 0)),
  );
  const max = niceMax(Math.max(0, ...totals, line?.value ?? 0));
  const plotWidth = WIDTH - PAD_LEFT;
  const plotHeight = HEIGHT - PAD_BOTTOM;
  const slot = plotWidth / Math.max(1, days.length);
  const y = (value: number) => plotHeight - (value / max) * plotHeight;
  const labelEvery = Math.ceil(days.length / 8);

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
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="mt-2 h-auto w-full"
        aria-hidden="true"
        data-chart={props.title}
      >
        <line x1={PAD_LEFT} x2={WIDTH} y1={plotHeight} y2={plotHeight} className="stroke-royal-600" />
        <text x={PAD_LEFT - 6} y={10} textAnchor="end" className="fill-gray-300 text-[10px]">
          {shortNumber(max)}
        </text>
        <text x={PAD_LEFT - 6} y={plotHeight} textAnchor="end" className="fill-gray-300 text-[10px]">
          0
        </text>
        {days.map((day, i) => {
          const x = PAD_LEFT + i * slot;
          let base = 0;
          return (
            <g key={day}>
              {series.map((s, n) => {
                const value = s.values[i] ?? 0;
                if (value === 0) return null;
                const inset = mode === 'overlap' ? (slot * n) / 4 : 0;
                const top = mode === 'stack' ? base + value : value;
                const bottom = mode === 'stack' ? base : 0;
                base = top;
                return (
                  <rect
                    key={s.label}
                    x={x + slot * 0.1 + inset / 2}
                    width={Math.max(1, slot * 0.8 - inset)}
                    y={y(top)}
                    height={Math.max(0.5, y(bottom) - y(top))}
                    className={s.className}
                  />
                );
              })}
              {i % labelEvery === 0 && (
                <text
                  x={x + slot / 2}
                  y={HEIGHT - 4}
                  textAnchor="middle"
                  className="fill-gray-300 text-[10px]"
                >
                  {day.slice(5)}
                </text>
              )}
            </g>
          );
        })}
        {line && (
          <line
            x1={PAD_LEFT}
            x2={WIDTH}
            y1={y(line.value)}
            y2={y(line.value)}
            strokeDasharray="4 3"
            className="stroke-red-300"
          />
        )}
      </svg>
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
