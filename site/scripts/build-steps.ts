import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { SiteConfig } from '../src/config/site-config-schema';
import { BUILT_PAGES } from '../src/page-contract/build-info';
import { BOOT_MARKER, HTML_MARKER } from '../src/page-contract/page-contract';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

const COMPRESSIBLE = /\.(js|css|svg|json|webmanifest|txt|xml|map)$/;

/**
 * inlineStylesheets replaces each `<link rel="stylesheet">` to a built CSS file with an inline `<style>`,
 * so the first response carries everything needed for first paint; the CSS files are then deleted.
 */
export async function inlineStylesheets(html: string, dist: string): Promise<string> {
  const links = [...html.matchAll(/<link rel="stylesheet"[^>]*href="([^"]+)"[^>]*>/g)];
  let result = html;
  for (const [tag, href] of links) {
    if (!href) continue;
    const file = join(dist, href.replace(/^\//, ''));
    const css = await readFile(file, 'utf8');
    result = result.replace(tag, () => `<style>${css}</style>`);
    await rm(file);
  }
  return result;
}

/** writeCrawlerFiles writes robots.txt, sitemap.xml and llms.txt for the configured site URL. */
export async function writeCrawlerFiles(dist: string, config: SiteConfig): Promise<void> {
  await writeFile(
    join(dist, 'robots.txt'),
    `User-agent: *\nAllow: /\n\nSitemap: ${config.siteUrl}/sitemap.xml\n`,
  );
  await writeFile(
    join(dist, 'sitemap.xml'),
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n  <url><loc>${config.siteUrl}/</loc></url>\n</urlset>\n`,
  );
  await writeFile(
    join(dist, 'llms.txt'),
    `# QUEEN SOLANA (${config.coinName})\n\n> A community meme coin on Solana. Crowned on Solana, revered across every chain.\n\n- Contract address: ${config.contractAddress}\n- Buy: ${config.launchpadUrl}\n- X: ${config.xUrl}\n\n${config.coinName} is a meme coin with no intrinsic value or expectation of financial return; for entertainment only.\n`,
  );
}

async function listFiles(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const path = join(directory, entry.name);
      return entry.isDirectory() ? listFiles(path) : Promise.resolve([path]);
    }),
  );
  return nested.flat();
}

/** precompressDirectory writes `.br` (max quality) and `.gz` siblings for every compressible static file. */
export async function precompressDirectory(dist: string): Promise<void> {
  const files = (await listFiles(dist)).filter((file) => COMPRESSIBLE.test(file));
  await Promise.all(
    files.map(async (file) => {
      const body = await readFile(file);
      if ((await stat(file)).size < 256) return;
      const [br, gz] = await Promise.all([
        brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        gzipAsync(body, { level: 9 }),
      ]);
      await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
    }),
  );
}

/**
 * inlineFavicon points the SVG icon link at a data: URI of svg, so no favicon request is made: browsers
 * fetch the icon around the load event, and Lighthouse counts every request started before the first paint
 * in its LCP estimate. /favicon.svg stays served for anything that asks for it by name.
 */
export function inlineFavicon(html: string, svg: string): string {
  const link = '<link rel="icon" href="/favicon.svg"';
  if (!html.includes(link)) throw new Error('build: no SVG icon link found in the page');
  // Single quotes inside, so the double-quoted attribute holds it; `<` and `>` are encoded too, so that no
  // `>` stands inside a tag (the hosted sign-in page finds the icon links by pattern: lib/site-page.ts).
  const uri = `data:image/svg+xml,${svg.replace(/"/g, "'").replace(/[%#&<>\t\n\r]/g, encodeURIComponent)}`;
  return html.replace(link, () => `<link rel="icon" href="${uri}"`);
}

/**
 * withoutSuspenseMarkers removes the comments React's prerender puts around each Suspense boundary's
 * content (`<!--$-->` … `<!--/$-->`). Home's bundle hydrates on preact/compat, which needs none: it skips
 * a comment, then re-inserts the boundary's element in front of it, moving whole sections, and removes
 * every comment it did not match; each move costs the page a new style, layout and paint. React DOM never
 * hydrates the built pages.
 */
export function withoutSuspenseMarkers(html: string): string {
  return html.replaceAll('<!--$-->', '').replaceAll('<!--/$-->', '');
}

/**
 * deferEntryScript loads the page's module script once the first contentful paint is reported, then after
 * the load event, a painted frame and an idle moment: the prerendered HTML is complete without it, so
 * hydration must not compete with the first render, nor its request sit in the chain that paint waits on
 * (Lighthouse counts every request started before the paint in its LCP estimate). The manifest link is
 * added at the same moment, for the same reason: Chromium fetches the manifest and its icon at the load
 * event, which can come before the first frame. Without scripts, a `<noscript>` copy of the link stands.
 * With them comes marketScript, the market refresh, when the served page shows live figures (the server
 * swaps them in): the hydration script carries nothing of the market.
 */
export function deferEntryScript(html: string, marketScript: string): string {
  const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>\s*/.exec(html);
  if (!entry?.[1]) throw new Error('build: no module entry script found in index.html');
  const manifest = /<link rel="manifest" href="([^"]+)" \/>/.exec(html);
  if (!manifest?.[1]) throw new Error('build: no manifest link found in index.html');
  // The entry's shared chunks are preloaded with it, not before the paint.
  const preloads = [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">\s*/g)];
  const preloadLinks = preloads
    .map(
      ([, href]) =>
        `var p=document.createElement('link');p.rel='modulepreload';p.crossOrigin='';` +
        `p.href=${JSON.stringify(href)};document.head.appendChild(p);`,
    )
    .join('');
  const loader =
    `<script>(function(){var loaded=false,shown=false,done=document.readyState==='complete';function load(){` +
    `if(loaded)return;loaded=true;${preloadLinks}var s=document.createElement('script');s.type='module';s.crossOrigin='';` +
    `s.src=${JSON.stringify(entry[1])};document.head.appendChild(s);var m=document.createElement('link');` +
    `m.rel='manifest';m.href=${JSON.stringify(manifest[1])};document.head.appendChild(m);` +
    `if(document.querySelector('[data-market=live]')){var k=document.createElement('script');k.type='module';` +
    `k.src=${JSON.stringify(marketScript)};document.head.appendChild(k)}}function idle(){` +
    `if(window.requestIdleCallback)requestIdleCallback(load,{timeout:1000});else setTimeout(load,50)}` +
    `function ready(){if(!shown||!done)return;requestAnimationFrame(function(){requestAnimationFrame(idle)});` +
    `setTimeout(load,1500)}` +
    // The paint entry arrives once the first contentful frame is presented; a browser without it goes on.
    `try{new PerformanceObserver(function(list,observer){if(!list.getEntriesByName('first-contentful-paint').length)` +
    `return;observer.disconnect();shown=true;ready()}).observe({type:'paint',buffered:true})}catch(e){shown=true}` +
    `if(!done)addEventListener('load',function(){done=true;ready()});ready();` +
    // A page whose load event or paint is held up (a slow image, a hidden tab) still becomes interactive.
    `setTimeout(load,4000)})()</script>`;
  return preloads
    .reduce((page, [link]) => page.replace(link, ''), html)
    .replace(manifest[0], () => `<noscript>${manifest[0]}</noscript>`)
    .replace(entry[0], '')
    .replace('</body>', () => `${loader}\n  </body>`);
}

/**
 * prerenderLoginPage fills the built login.html with the prerendered sign-in step and inlines its CSS. Its
 * script is not deferred like Home's: the form is the whole page, so it should work as soon as possible.
 */
export async function prerenderLoginPage(dist: string, markup: string): Promise<string> {
  const template = await inlineStylesheets(await readFile(join(dist, BUILT_PAGES.login), 'utf8'), dist);
  for (const marker of [BOOT_MARKER, HTML_MARKER]) {
    if (!template.includes(marker)) throw new Error(`build: ${BUILT_PAGES.login} has no ${marker} marker`);
  }
  return template.replace(HTML_MARKER, () => markup);
}
