import {
  formatMarketFigures,
  parseMarketSnapshot,
  SERVED_MARKET_LOCALE,
  type MarketFigures,
  type MarketSnapshot,
} from '../../page-contract/market';

// Keeps the server-filled market views current: loaded as its own chunk after the first paint, only when
// the server serves live figures, so the page's hydration script carries none of it. It asks for the
// figures at once and words them in the visitor's locale, then asks again every 30 s while the page is
// visible, none while hidden, and at once when it becomes visible again after a longer pause.

/** MARKET_REFRESH_MS is how often a visible page asks for new figures (the server caches them as long). */
export const MARKET_REFRESH_MS = 30_000;

/** showFigures writes figures into every live market view of root (the views' markup is the build's). */
export function showFigures(figures: MarketFigures, root: ParentNode = document): void {
  for (const view of root.querySelectorAll<HTMLElement>('[data-market="live"]')) {
    view.dataset.trend = figures.trend;
    for (const node of view.querySelectorAll<HTMLElement>('[data-figure]')) {
      node.textContent = figures[node.dataset.figure as keyof MarketFigures] ?? '';
    }
    view.querySelector('polyline')?.setAttribute('points', figures.spark);
    view.querySelector('a')?.setAttribute('href', figures.sourceUrl);
  }
}

/**
 * startMarketRefresh keeps the market views current. The page was served with the figures in
 * SERVED_MARKET_LOCALE; for a visitor of another locale the first answer, asked for at once, words them in
 * theirs (no answer: they stay as served).
 */
export function startMarketRefresh(): void {
  let snapshot: MarketSnapshot | null = null;
  // Never yet: a page opened in a background tab asks as soon as it is shown.
  let lastAsked = 0;
  const show = () => snapshot && showFigures(formatMarketFigures(snapshot, navigator.language, Date.now()));

  async function refresh() {
    if (document.visibilityState !== 'visible') return;
    lastAsked = Date.now();
    try {
      const answer = await fetch('/api/market', { headers: { accept: 'application/json' } });
      // No figures now (404): the last good ones stay, with their age.
      if (answer.ok) snapshot = parseMarketSnapshot(await answer.json()) ?? snapshot;
    } catch {
      // Offline or the server is restarting: the next tick asks again.
    }
    show();
  }

  // A visitor who reads the served locale has nothing to re-word until the figures change: the first
  // refresh then waits its turn. Worth it: a page's first Intl formatter starts ICU, a ~40 ms task.
  if (navigator.language !== SERVED_MARKET_LOCALE) void refresh();
  setInterval(() => void refresh(), MARKET_REFRESH_MS);
  document.addEventListener('visibilitychange', () => {
    if (Date.now() - lastAsked >= MARKET_REFRESH_MS) void refresh();
  });
}
