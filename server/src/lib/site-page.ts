import {
  BOOT_MARKER,
  bootScript,
  HERO_URL_PLACEHOLDER,
  NEUTRAL_LOOK,
  PATH_PLACEHOLDER,
  type BootData,
} from '../../../site/src/page-contract/page-contract';
import type { BuildInfo } from '../../../site/src/page-contract/build-info';
import {
  formatMarketFigures,
  MARKET_FIGURE_KEYS,
  marketToken,
  parseMarketSnapshot,
  SERVED_MARKET_LOCALE,
} from '../../../site/src/page-contract/market';
import { escapeHtml } from './html-escape';

// The markers, boot data and path label are the page contract's (site/src/page-contract/): this file only
// fills them in.
export type { BootData } from '../../../site/src/page-contract/page-contract';

/**
 * renderHomePage fills the boot marker and, when the hero image exists, swaps the hero's generating
 * fragment for its ready fragment pointing at the image; with a market snapshot, the market views show it.
 */
export function renderHomePage(
  html: string,
  data: BootData,
  buildInfo: BuildInfo | null,
  market: unknown = null,
): string {
  let page = html;
  if (buildInfo && data.heroImageUrl) {
    const ready = buildInfo.hero.ready.split(HERO_URL_PLACEHOLDER).join(escapeHtml(data.heroImageUrl));
    page = page.replace(buildInfo.hero.generating, () => ready);
  }
  page = withMarketFigures(page, market, buildInfo, Date.now());
  // A replacer function keeps `$` sequences in the JSON from being read as replacement patterns.
  return page.replace(BOOT_MARKER, () => bootScript(data));
}

/**
 * AGE_STEP_MS is the step the first HTML words the figures' age in ("updated 20 s ago"): the page's bytes
 * then stay the same for that long, so its compression is remembered and redone at brotli's best
 * (lib/compression.ts). The market refresh rewords the age to the second with its first answer.
 */
const AGE_STEP_MS = 10_000;

/**
 * withMarketFigures swaps each market view's pre-launch fragment for its live one, filled with market,
 * worded in SERVED_MARKET_LOCALE as of now (its age in AGE_STEP_MS steps). The page's loader fetches the
 * market refresh when it finds a live view (site/scripts/build-steps.ts), which keeps the figures current
 * and words them in the visitor's locale (a page without figures loads none of it). The snapshot is not
 * put in the boot data as well: it would cost the first flight ~0.2 KB that the refresh asks for anyway.
 */
function withMarketFigures(html: string, market: unknown, buildInfo: BuildInfo | null, now: number): string {
  const snapshot = parseMarketSnapshot(market);
  if (!buildInfo?.market || !snapshot) return html;
  const updatedAt = Date.parse(snapshot.updatedAt);
  const age = Math.max(0, now - updatedAt);
  const figures = formatMarketFigures(snapshot, SERVED_MARKET_LOCALE, updatedAt + age - (age % AGE_STEP_MS));
  let page = html;
  for (const { placeholder, live } of buildInfo.market) {
    const filled = MARKET_FIGURE_KEYS.reduce(
      (fragment, key) => fragment.split(marketToken(key)).join(escapeHtml(figures[key])),
      live,
    );
    page = page.replace(placeholder, () => filled);
  }
  return page;
}

/** renderNotFoundPage fills the boot marker and every requested-path placeholder (escaped here). */
export function renderNotFoundPage(html: string, data: BootData, requestedPath: string): string {
  return html
    .split(PATH_PLACEHOLDER)
    .join(escapeHtml(requestedPath))
    .replace(BOOT_MARKER, () => bootScript(data));
}

/** renderLoginPage fills the sign-in page's boot marker (the app id it signs in to). */
export function renderLoginPage(html: string, data: BootData): string {
  return html.replace(BOOT_MARKER, () => bootScript(data));
}

// This site's icons and manifest are not served for a hosted app (its own are at other paths, if any).
const SITE_ICON_LINK = /<link\b[^>]*\brel="(?:icon|apple-touch-icon|manifest)"[^>]*>/gi;

/**
 * renderHostedLoginPage is our sign-in page for a hosted app: the boot data names the app (the page shows
 * that name), the title says it, `<html data-look="neutral">` drops this site's brand colours, and this
 * site's icon and manifest links go.
 */
export function renderHostedLoginPage(html: string, data: BootData, appName: string): string {
  const title = `<title>Sign in · ${escapeHtml(appName)}</title>`;
  return html
    .replace(SITE_ICON_LINK, '')
    .replace(/<html\b/i, () => `<html data-look="${NEUTRAL_LOOK}"`)
    .replace(/<title>[^<]*<\/title>/i, () => title)
    .replace(BOOT_MARKER, () => bootScript({ ...data, hostedAppName: appName }));
}
