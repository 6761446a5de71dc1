import type { ReactNode } from 'react';
import type { MarketFigures } from '../../../page-contract/market';

export type MarketVariant = 'tile' | 'strip';

// Fixed heights per breakpoint: figures and the placeholder fill the same box, so nothing moves (CLS 0).
const BOX: Record<MarketVariant, string> = {
  tile: 'h-32 max-w-xl rounded-2xl px-4 py-3',
  strip: 'mx-auto mt-10 h-60 max-w-6xl rounded-3xl p-5 sm:h-[11.5rem] lg:h-[7.5rem]',
};
const GRID: Record<MarketVariant, string> = {
  tile: 'grid-cols-[1.4fr_1fr_1fr] gap-x-3',
  strip: 'grid-cols-2 gap-x-6 gap-y-3 sm:grid-cols-3 lg:grid-cols-6',
};

/** Figure is one figure's text; market-refresh.ts finds it by its name to put newer figures in. */
function Figure({ name, figures }: { name: keyof MarketFigures; figures: MarketFigures }) {
  return <span data-figure={name}>{figures[name]}</span>;
}

function Stat({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-[11px] font-semibold tracking-wider whitespace-nowrap text-gold-200 uppercase">
        {label}
      </dt>
      <dd className="text-base font-bold whitespace-nowrap figures sm:text-lg">{children}</dd>
    </div>
  );
}

function Spark({ points, className }: { points: string; className: string }) {
  return (
    <svg viewBox="0 0 100 32" preserveAspectRatio="none" aria-hidden="true" className={className}>
      <polyline
        points={points}
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        vectorEffect="non-scaling-stroke"
      />
    </svg>
  );
}

/**
 * MarketView shows the coin's figures (the hero tile, or the fuller How to Buy strip), or the pre-launch
 * text in the same space. Rendered only by the build: as the pre-launch text, and with stand-in figures the
 * server fills for the first HTML (build-info.json). No script of its own ships to the browser.
 */
export function MarketView({ figures, variant }: { figures: MarketFigures | null; variant: MarketVariant }) {
  const box = `w-full overflow-hidden border border-gold-300/30 bg-royal-900/80 text-white ${BOX[variant]}`;
  if (!figures) {
    return (
      <div data-market="placeholder" className={`${box} grid place-items-center`}>
        <p className="text-sm text-white/80">Market data appears after launch</p>
      </div>
    );
  }
  const strip = variant === 'strip';
  const spark = (
    <Spark points={figures.spark} className={`w-full text-sol-green ${strip ? 'h-7' : 'mt-1 h-5'}`} />
  );
  return (
    <div data-market="live" data-trend={figures.trend} className={box}>
      <dl className={`grid ${GRID[variant]}`}>
        <Stat label="Price">
          <Figure name="price" figures={figures} />
        </Stat>
        <Stat label="24 h change">
          <span className="text-sol-green [[data-trend=down]_&]:text-rose-300">
            <span aria-hidden="true" data-figure="arrow">
              {figures.arrow}
            </span>{' '}
            <span className="sr-only" data-figure="trendWord">
              {figures.trendWord}
            </span>{' '}
            <Figure name="change" figures={figures} />
          </span>
        </Stat>
        <Stat label={<Figure name="capLabel" figures={figures} />}>
          <Figure name="cap" figures={figures} />
        </Stat>
        {strip && (
          <Stat label="Liquidity">
            <Figure name="liquidity" figures={figures} />
          </Stat>
        )}
        {strip && (
          <Stat label="24 h volume">
            <Figure name="volume" figures={figures} />
          </Stat>
        )}
        {strip && <Stat label="24 h chart">{spark}</Stat>}
      </dl>
      {!strip && spark}
      {/* The age last: it changes as it ticks ("9 s" → "10 s"), and text after it would move (a layout shift). */}
      <p className={`truncate text-xs text-white/75 ${strip ? 'mt-3' : 'mt-1'}`}>
        data:{' '}
        <a href={figures.sourceUrl} target="_blank" rel="noopener noreferrer" className="underline">
          <Figure name="source" figures={figures} />
        </a>{' '}
        · updated <Figure name="age" figures={figures} />
      </p>
    </div>
  );
}
