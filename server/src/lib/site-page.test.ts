import { describe, expect, it } from 'vitest';
import { requestedPathLabel } from '../../../site/src/page-contract/page-contract';
import { PATH_LABEL_CASES } from '../../../site/src/testing/path-label-cases';
import { marketToken } from '../../../site/src/page-contract/market';
import { escapeHtml } from './html-escape';
import { renderHomePage, renderLoginPage, renderNotFoundPage, type BootData } from './site-page';

const boot: BootData = { appId: 'a', publicSettings: null, heroImageUrl: null };

describe('requestedPathLabel, as the server calls it with the request URL', () => {
  // The page script names the same page from location.pathname (site/src/config/paths.test.ts): one table.
  it.each(PATH_LABEL_CASES)('$url → $label', ({ url, label }) => {
    expect(requestedPathLabel(url)).toBe(label);
    const page = renderNotFoundPage('<p>__APP_REQUESTED_PATH__</p>', boot, requestedPathLabel(url));
    expect(page).toBe(`<p>${escapeHtml(label)}</p>`);
  });
});

describe('renderNotFoundPage', () => {
  it('escapes every placeholder and fills the boot marker', () => {
    const html = '<head><!--app-boot--></head><p>__APP_REQUESTED_PATH__</p><i>__APP_REQUESTED_PATH__</i>';
    const page = renderNotFoundPage(html, boot, '<script>"x"');
    expect(page).not.toContain('<script>"x"');
    expect(page.match(/&lt;script&gt;&quot;x&quot;/g)).toHaveLength(2);
    expect(page).toContain('<script id="app-boot" type="application/json">{"appId":"a"');
  });
});

describe('renderHomePage', () => {
  const info = {
    configHash: 'h',
    heroPrompt: 'p',
    hero: { generating: '<div class="gen"></div>', ready: '<img src="__APP_HERO_URL__">' },
  };
  const html = '<head><!--app-boot--></head><main><div class="gen"></div></main>';

  it('keeps the generating fragment without an image', () => {
    expect(renderHomePage(html, boot, info)).toContain('<div class="gen"></div>');
  });

  it('swaps in the ready fragment with the image URL', () => {
    const page = renderHomePage(html, { ...boot, heroImageUrl: '/media/k.svg' }, info);
    expect(page).toContain('<img src="/media/k.svg">');
    expect(page).not.toContain('class="gen"');
    expect(page).toContain('"heroImageUrl":"/media/k.svg"');
  });

  it('does not expand $ patterns from the data', () => {
    const page = renderHomePage(html, { ...boot, appId: "$&$'" }, null);
    expect(page).toContain('"appId":"$&$\'"');
  });

  it('fills the market views only when it serves live figures', () => {
    const marketInfo = {
      ...info,
      market: [{ placeholder: '<p>after launch</p>', live: `<p>${marketToken('price')}</p>` }],
    };
    const page = '<head><!--app-boot--></head><main><p>after launch</p></main>\n  </body>';
    const snapshot = {
      priceUsd: 0.5,
      change24h: 1,
      marketCap: 1_000_000,
      fdv: null,
      liquidityUsd: null,
      volume24hUsd: null,
      sparkline: [],
      updatedAt: new Date().toISOString(),
      source: 'DexScreener',
      sourceUrl: 'https://dexscreener.com/solana/x',
    };
    const live = renderHomePage(page, boot, marketInfo, snapshot);
    expect(live).toContain('<p>$0.5</p>');
    // The refresh asks for the figures itself: the first flight does not carry them twice.
    expect(live).not.toContain('"market"');
    const before = renderHomePage(page, boot, marketInfo);
    expect(before).toContain('<p>after launch</p>');
  });

  it('words the age in 10 s steps, so the page stays the same bytes for that long', () => {
    const marketInfo = {
      ...info,
      market: [{ placeholder: '<p>soon</p>', live: `<p>${marketToken('age')}</p>` }],
    };
    const page = '<head><!--app-boot--></head><main><p>soon</p></main>';
    const market = (ageMs: number) => ({
      priceUsd: 0.5,
      change24h: 1,
      marketCap: null,
      fdv: null,
      liquidityUsd: null,
      volume24hUsd: null,
      sparkline: [],
      updatedAt: new Date(Date.now() - ageMs).toISOString(),
      source: 'DexScreener',
      sourceUrl: 'https://dexscreener.com/solana/x',
    });
    expect(renderHomePage(page, boot, marketInfo, market(3_000))).toContain('<p>0 s ago</p>');
    expect(renderHomePage(page, boot, marketInfo, market(27_000))).toContain('<p>20 s ago</p>');
    expect(renderHomePage(page, boot, marketInfo, market(95_000))).toContain('<p>1 min ago</p>');
  });
});

describe('renderLoginPage', () => {
  it('fills the boot marker and nothing else', () => {
    const html = '<head><!--app-boot--></head><main>__APP_REQUESTED_PATH__</main>';
    const page = renderLoginPage(html, { ...boot, appId: "$&'" });
    expect(page).toContain('<script id="app-boot" type="application/json">{"appId":"$&\'"');
    expect(page).toContain('<main>__APP_REQUESTED_PATH__</main>');
  });
});
