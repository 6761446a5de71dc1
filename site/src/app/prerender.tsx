import { PassThrough } from 'node:stream';
import { prerenderToNodeStream } from 'react-dom/static';
import { renderToString } from 'react-dom/server';
import { HeroImageView } from '../features/marketing/components/hero-image';
import { MarketView, type MarketVariant } from '../features/marketing/components/market-view';
import { MARKET_FIGURE_KEYS, marketToken, type MarketFigures } from '../page-contract/market';
import { App } from './app';

// Build-time entry: renders pages to HTML for the build script (never shipped to browsers).

async function streamToString(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream.pipe(new PassThrough())) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * renderPage prerenders the app for a path, waiting for lazy routes to resolve. Every Suspense boundary's
 * content stays in place: past `progressiveChunkSize` bytes React would move a boundary's content to the
 * end of the page, behind a script, which the page's hydration slices must find where it belongs.
 */
export async function renderPage(pathname: string): Promise<string> {
  const { prelude } = await prerenderToNodeStream(<App pathname={pathname} />, {
    progressiveChunkSize: Number.POSITIVE_INFINITY,
  });
  return streamToString(prelude);
}

// React hoists resource hints (e.g. an image preload) in front of a standalone render; inside the page
// they live in <head>, so the swappable fragment is the markup without them.
const withoutHoistedHints = (html: string) => html.replace(/^(<link [^>]*\/>)+/, '');

/** renderHeroFragments renders the hero image slot in its "generating" and "ready" states for the server. */
export function renderHeroFragments(urlPlaceholder: string) {
  return {
    generating: withoutHoistedHints(renderToString(<HeroImageView state={{ status: 'generating' }} />)),
    ready: withoutHoistedHints(
      renderToString(<HeroImageView state={{ status: 'ready', url: urlPlaceholder }} />),
    ),
  };
}

const TOKEN_FIGURES = Object.fromEntries(
  MARKET_FIGURE_KEYS.map((key) => [key, marketToken(key)]),
) as unknown as MarketFigures;

/** renderMarketFragments renders each market view as the pre-launch text and with stand-in figures. */
export function renderMarketFragments() {
  return (['tile', 'strip'] as const satisfies readonly MarketVariant[]).map((variant) => ({
    placeholder: renderToString(<MarketView figures={null} variant={variant} />),
    live: renderToString(<MarketView figures={TOKEN_FIGURES} variant={variant} />),
  }));
}

export { HERO_IMAGE_PROMPT } from '../content/home-content';
export { renderLoginPage } from './login-prerender';
