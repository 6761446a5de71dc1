import { useSyncExternalStore } from 'react';
import { bootData } from '../../../lib/app-context';
import {
  formatMarketFigures,
  parseMarketSnapshot,
  type MarketFigures,
  type MarketSnapshot,
} from '../../../page-contract/market';

/** MARKET_REFRESH_MS is how often a visible page asks for new figures (the server caches them as long). */
export const MARKET_REFRESH_MS = 30_000;

interface MarketState {
  figures: MarketFigures | null;
}

// One store for the tile and the strip: one request per refresh. The first render repeats the server's
// wording (locale "en-US", its clock) so hydration matches; then the visitor's locale and clock take over.
const boot = bootData.market;
let snapshot: MarketSnapshot | null = boot?.snapshot ?? null;
const word = (locale: string, now: number): MarketState => ({
  figures: snapshot && formatMarketFigures(snapshot, locale, now),
});
const served = word('en-US', boot?.servedAt ?? 0);
let state = served;
let lastAsked = 0;
const listeners = new Set<() => void>();

function publish() {
  state = word(navigator.language, Date.now());
  listeners.forEach((listener) => listener());
}

async function refresh() {
  if (document.visibilityState !== 'visible') return;
  lastAsked = Date.now();
  try {
    const answer = await fetch('/api/market', { headers: { accept: 'application/json' } });
    // No figures now (404): the last good ones stay, with their age.
    if (answer.ok) snapshot = parseMarketSnapshot(await answer.json()) ?? snapshot;
  } catch {
    // Offline or the server is restarting: try again at the next tick.
  }
  publish();
}

function onVisible() {
  if (Date.now() - lastAsked >= MARKET_REFRESH_MS) void refresh();
}

let stop: (() => void) | null = null;

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (!stop) {
    lastAsked = Date.now();
    const timer = setInterval(() => void refresh(), MARKET_REFRESH_MS);
    document.addEventListener('visibilitychange', onVisible);
    stop = () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
    publish();
    // Served before the server had figures (it has started fetching them): ask again at once.
    if (!snapshot) void refresh();
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size > 0) return;
    stop?.();
    stop = null;
  };
}

const ignore = () => () => {};

/** useMarketFigures is the figures to show (null: the pre-launch text), refreshed while the page is visible. */
export function useMarketFigures(): MarketFigures | null {
  // Without live figures from the server (placeholder address, MARKET_DATA=off, vite dev) nothing polls.
  return useSyncExternalStore(
    boot ? subscribe : ignore,
    () => state,
    () => served,
  ).figures;
}
