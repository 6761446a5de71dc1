import { Group } from '@visx/group';
import { scaleBand, scaleLinear } from '@visx/scale';
import { Bar, BarStack, Line } from '@visx/shape';
import type { ChartSeries } from './day-chart';

// The chart itself, drawn with visx (scales and bar shapes; plain SVG, so the page's CSP and Tailwind
// classes apply): days as bars, `stack` piling the series, `overlap` drawing each over the previous one,
// narrower (views, then visitors), and a dashed line across (the daily budget) when given.

const WIDTH = 720;
const HEIGHT = 180;
const PAD_LEFT = 48;
const PAD_BOTTOM = 20;
const PLOT_HEIGHT = HEIGHT - PAD_BOTTOM;
/** MAX_DAY_LABELS is how many day labels the axis writes at most. */
const MAX_DAY_LABELS = 8;

/** shortNumber writes 1234 as 1.2k and 2500000 as 2.5M, for the axis. */
export function shortNumber(value: number): string {
  if (value >= 1e6) return `${+(value / 1e6).toFixed(1)}M`;
  if (value >= 1e3) return `${+(value / 1e3).toFixed(1)}k`;
  return String(value);
}

/** DayRow is one day's values, by series label, as the stack reads them. */
interface DayRow {
  day: string;
  values: Record<string, number>;
}

/** DayBars draws the days of series as bars (aria-hidden: the chart's table says the same to everyone). */
export function DayBars(props: {
  title: string;
  days: string[];
  series: ChartSeries[];
  mode: 'stack' | 'overlap';
  line?: { label: string; value: number } | undefined;
}) {
  const { days, series, mode, line } = props;
  const rows: DayRow[] = days.map((day, i) => ({
    day,
    values: Object.fromEntries(series.map((s) => [s.label, s.values[i] ?? 0])),
  }));
  const totals = rows.map(({ values }) =>
    mode === 'stack'
      ? Object.values(values).reduce((sum, value) => sum + value, 0)
      : Math.max(0, ...Object.values(values)),
  );
  const x = scaleBand<string>({
    domain: days,
    range: [PAD_LEFT, WIDTH],
    paddingInner: 0.2,
    paddingOuter: 0.1,
  });
  const y = scaleLinear<number>({
    domain: [0, Math.max(1, ...totals, line?.value ?? 0)],
    range: [PLOT_HEIGHT, 0],
    nice: true,
  });
  const top = y.domain()[1] ?? 1;
  const classOf = (label: string) => series.find((s) => s.label === label)?.className ?? 'fill-gray-400';
  const labelEvery = Math.ceil(days.length / MAX_DAY_LABELS);

  return (
    <svg
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      className="mt-2 h-auto w-full"
      aria-hidden="true"
      data-chart={props.title}
    >
      <Line
        from={{ x: PAD_LEFT, y: PLOT_HEIGHT }}
        to={{ x: WIDTH, y: PLOT_HEIGHT }}
        className="stroke-royal-600"
      />
      <text x={PAD_LEFT - 6} y={10} textAnchor="end" className="fill-gray-300 text-[10px]">
        {shortNumber(top)}
      </text>
      <text x={PAD_LEFT - 6} y={PLOT_HEIGHT} textAnchor="end" className="fill-gray-300 text-[10px]">
        0
      </text>
      {mode === 'stack' ? (
        <BarStack<DayRow, string>
          data={rows}
          keys={series.map((s) => s.label)}
          value={(row, key) => row.values[key] ?? 0}
          x={(row) => row.day}
          xScale={x}
          yScale={y}
          color={classOf}
        >
          {(stacks) =>
            stacks.flatMap((stack) =>
              stack.bars
                .filter((bar) => bar.height > 0)
                .map((bar) => (
                  <rect
                    key={`${stack.key}-${bar.index}`}
                    x={bar.x}
                    y={bar.y}
                    width={bar.width}
                    height={Math.max(0.5, bar.height)}
                    className={bar.color}
                  />
                )),
            )
          }
        </BarStack>
      ) : (
        series.map((s, n) => (
          <Group key={s.label}>
            {rows.map((row) => {
              const value = row.values[s.label] ?? 0;
              if (value === 0) return null;
              // Each later series narrower, centred on the day, so the one behind shows around it.
              const inset = (x.bandwidth() * n) / 4;
              return (
                <Bar
                  key={row.day}
                  x={(x(row.day) ?? 0) + inset / 2}
                  width={Math.max(1, x.bandwidth() - inset)}
                  y={y(value)}
                  height={Math.max(0.5, PLOT_HEIGHT - y(value))}
                  className={s.className}
                />
              );
            })}
          </Group>
        ))
      )}
      {days.map((day, i) =>
        i % labelEvery === 0 ? (
          <text
            key={day}
            x={(x(day) ?? 0) + x.bandwidth() / 2}
            y={HEIGHT - 4}
            textAnchor="middle"
            className="fill-gray-300 text-[10px]"
          >
            {day.slice(5)}
          </text>
        ) : null,
      )}
      {line && (
        <Line
          from={{ x: PAD_LEFT, y: y(line.value) }}
          to={{ x: WIDTH, y: y(line.value) }}
          strokeDasharray="4 3"
          className="stroke-red-300"
        />
      )}
    </svg>
  );
}
