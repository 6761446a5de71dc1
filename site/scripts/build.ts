// Builds the site: client bundles (the operator console's in dist/_/), prerendered Home, 404 and sign-in pages with inlined CSS, brand assets, and
// precompressed (.br/.gz) copies of every static file. Run with `npm run build -w site`.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';
import { loadSiteConfig, siteConfigWarnings, SiteConfigError } from '../src/config/site-config-schema';
import {
  BUILD_INFO_FILE,
  BUILT_PAGES,
  CONSOLE_DIR,
  CONSOLE_PAGE,
  siteConfigHash,
  type BuildInfo,
} from '../src/page-contract/build-info';
import { HERO_URL_PLACEHOLDER, HTML_MARKER, PATH_PLACEHOLDER } from '../src/page-contract/page-contract';
import { faviconSvg, writeBrandAssets } from './brand-assets';
import {
  deferEntryScript,
  inlineFavicon,
  inlineStylesheets,
  precompressDirectory,
  prerenderLoginPage,
  withoutSuspenseMarkers,
  writeCrawlerFiles,
} from './build-steps';
import { eagerCompileInitialChunks, HOME_MODULE_PRELOAD, PREACT_COMPAT_ALIASES } from './home-runtime';

const siteRoot = resolve(import.meta.dirname, '..');
const dist = join(siteRoot, 'dist');
const ssrOut = join(siteRoot, 'node_modules/.cache/prerender');

interface PrerenderModule {
  renderPage(pathname: string): Promise<string>;
  renderHeroFragments(urlPlaceholder: string): { generating: string; ready: string };
  renderLoginPage(): string;
  renderMarketFragments(): { placeholder: string; live: string }[];
  HERO_IMAGE_PROMPT: string;
}

/** entryScriptOf is the site path of the one entry chunk a client build wrote. */
function entryScriptOf(output: Awaited<ReturnType<typeof build>>): string {
  const outputs = Array.isArray(output) ? output : [output];
  for (const result of outputs) {
    if (!('output' in result)) continue;
    const entry = result.output.find((chunk) => chunk.type === 'chunk' && chunk.isEntry);
    if (entry) return `/${entry.fileName}`;
  }
  throw new Error('build: the market refresh build wrote no entry chunk');
}

async function main() {
  const started = Date.now();
  const config = loadSiteConfig(resolve(siteRoot, '../site.config.json'));
  siteConfigWarnings(config).forEach((warning) => console.warn(`warning: ${warning}`));

  // One client build per page, Home first (it empties dist/): pages share no chunk, so the sign-in page
  // never changes Home's bundle.
  console.log('site: building the client bundles…');
  for (const [page, input] of [
    ['index', BUILT_PAGES.home],
    ['login', BUILT_PAGES.login],
  ] as const) {
    await build({
      configFile: join(siteRoot, 'vite.config.ts'),
      configLoader: 'runner',
      logLevel: 'warn',
      build: {
        rolldownOptions: { input: join(siteRoot, input) },
        ...(page === 'index'
          ? { modulePreload: HOME_MODULE_PRELOAD }
          : { emptyOutDir: false, copyPublicDir: false }),
      },
      ...(page === 'index'
        ? { resolve: { alias: PREACT_COMPAT_ALIASES }, plugins: [eagerCompileInitialChunks()] }
        : {}),
    });
  }

  // The market refresh: its own script, which the server adds to Home only while it serves live figures.
  const marketBuild = await build({
    configFile: join(siteRoot, 'vite.config.ts'),
    configLoader: 'runner',
    logLevel: 'warn',
    build: {
      // A string, not an object: the config's own input (every page) is replaced, not merged.
      rolldownOptions: { input: join(siteRoot, 'src/app/market-main.ts') },
      emptyOutDir: false,
      copyPublicDir: false,
    },
  });
  const marketScript = entryScriptOf(marketBuild);

  // The operator console: its own entry, folder and base (`/_/`), so Home's bundle never changes with it.
  console.log('site: building the console…');
  await build({
    configFile: join(siteRoot, 'vite.config.ts'),
    configLoader: 'runner',
    logLevel: 'warn',
    base: `/${CONSOLE_DIR}/`,
    build: {
      rolldownOptions: { input: join(siteRoot, CONSOLE_PAGE) },
      outDir: join(dist, CONSOLE_DIR),
      emptyOutDir: true,
      copyPublicDir: false,
    },
  });

  console.log('site: building the prerenderer…');
  await build({
    configFile: join(siteRoot, 'vite.config.ts'),
    configLoader: 'runner',
    logLevel: 'warn',
    build: { ssr: 'src/app/prerender.tsx', outDir: ssrOut, emptyOutDir: true },
  });
  const prerender = (await import(pathToFileURL(join(ssrOut, 'prerender.js')).href)) as PrerenderModule;

  console.log('site: prerendering Home and the 404 page…');
  const template = deferEntryScript(
    inlineFavicon(
      await inlineStylesheets(await readFile(join(dist, BUILT_PAGES.home), 'utf8'), dist),
      faviconSvg(),
    ),
    marketScript,
  );
  const home = template.replace(HTML_MARKER, withoutSuspenseMarkers(await prerender.renderPage('/')));
  const notFound = template
    .replace(HTML_MARKER, withoutSuspenseMarkers(await prerender.renderPage(`/${PATH_PLACEHOLDER}`)))
    .replace('</title>', '</title>\n    <meta name="robots" content="noindex" />');
  const hero = prerender.renderHeroFragments(HERO_URL_PLACEHOLDER);
  if (!home.includes(hero.generating))
    throw new Error(`build: the hero "generating" fragment is not in ${BUILT_PAGES.home}`);
  const market = prerender.renderMarketFragments();
  if (market.some(({ placeholder }) => !home.includes(placeholder)))
    throw new Error(`build: a market placeholder fragment is not in ${BUILT_PAGES.home}`);
  await writeFile(join(dist, BUILT_PAGES.home), home);
  await writeFile(join(dist, BUILT_PAGES.notFound), notFound);

  console.log('site: prerendering the sign-in page…');
  const login = await prerenderLoginPage(dist, prerender.renderLoginPage());
  await writeFile(join(dist, BUILT_PAGES.login), inlineFavicon(login, faviconSvg()));

  const buildInfo: BuildInfo = {
    configHash: siteConfigHash(config),
    heroPrompt: prerender.HERO_IMAGE_PROMPT,
    hero,
    market,
  };
  await writeFile(join(dist, BUILD_INFO_FILE), JSON.stringify(buildInfo, null, 2));

  console.log('site: drawing brand assets and crawler files…');
  await writeBrandAssets(dist, config);
  await writeCrawlerFiles(dist, config);

  console.log('site: precompressing…');
  await precompressDirectory(dist);
  await rm(ssrOut, { recursive: true, force: true });
  console.log(`site: built into ${dist} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

main().catch((error: unknown) => {
  console.error(error instanceof SiteConfigError ? error.message : error);
  process.exit(1);
});
