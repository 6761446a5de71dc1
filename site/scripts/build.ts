// Builds the site: client bundles, prerendered Home, 404 and sign-in pages with inlined CSS, brand assets, and
// precompressed (.br/.gz) copies of every static file. Run with `npm run build -w site`.
import { createHash } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';
import { loadSiteConfig, siteConfigWarnings, SiteConfigError } from '../src/config/site-config-schema';
import { writeBrandAssets } from './brand-assets';
import {
  deferEntryScript,
  inlineStylesheets,
  precompressDirectory,
  prerenderLoginPage,
  writeCrawlerFiles,
} from './build-steps';

const siteRoot = resolve(import.meta.dirname, '..');
const dist = join(siteRoot, 'dist');
const ssrOut = join(siteRoot, 'node_modules/.cache/prerender');

export const HERO_URL_PLACEHOLDER = '__APP_HERO_URL__';
export const REQUESTED_PATH_PLACEHOLDER = '__APP_REQUESTED_PATH__';

interface PrerenderModule {
  renderPage(pathname: string): Promise<string>;
  renderHeroFragments(urlPlaceholder: string): { generating: string; ready: string };
  renderLoginPage(): string;
  HERO_IMAGE_PROMPT: string;
}

async function main() {
  const started = Date.now();
  const config = loadSiteConfig(resolve(siteRoot, '../site.config.json'));
  siteConfigWarnings(config).forEach((warning) => console.warn(`warning: ${warning}`));

  // One client build per page, Home first (it empties dist/): pages share no chunk, so the sign-in page
  // never changes Home's bundle.
  console.log('site: building the client bundles…');
  for (const [page, input] of [
    ['index', 'index.html'],
    ['login', 'login.html'],
  ] as const) {
    await build({
      configFile: join(siteRoot, 'vite.config.ts'),
      configLoader: 'runner',
      logLevel: 'warn',
      build: {
        rolldownOptions: { input: join(siteRoot, input) },
        ...(page === 'index' ? {} : { emptyOutDir: false, copyPublicDir: false }),
      },
    });
  }

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
    await inlineStylesheets(await readFile(join(dist, 'index.html'), 'utf8'), dist),
  );
  const home = template.replace('<!--app-html-->', await prerender.renderPage('/'));
  const notFound = template
    .replace('<!--app-html-->', await prerender.renderPage(`/${REQUESTED_PATH_PLACEHOLDER}`))
    .replace('</title>', '</title>\n    <meta name="robots" content="noindex" />');
  const hero = prerender.renderHeroFragments(HERO_URL_PLACEHOLDER);
  if (!home.includes(hero.generating))
    throw new Error('build: the hero "generating" fragment is not in index.html');
  await writeFile(join(dist, 'index.html'), home);
  await writeFile(join(dist, '404.html'), notFound);

  console.log('site: prerendering the sign-in page…');
  await writeFile(join(dist, 'login.html'), await prerenderLoginPage(dist, prerender.renderLoginPage()));

  const configHash = createHash('sha256').update(JSON.stringify(config)).digest('hex');
  await writeFile(
    join(dist, 'build-info.json'),
    JSON.stringify({ configHash, heroPrompt: prerender.HERO_IMAGE_PROMPT, hero }, null, 2),
  );

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
