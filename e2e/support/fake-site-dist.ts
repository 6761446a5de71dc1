import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';

/** FAKE_HERO_PROMPT is the hero prompt the fake build declares. */
export const FAKE_HERO_PROMPT = 'a fake hero for the server tests';
/** FAKE_HERO_GENERATING is the hero fragment the fake index.html ships with. */
export const FAKE_HERO_GENERATING = '<div class="hero-generating">Painting the queen…</div>';
/** FAKE_ASSET_SOURCE is the content of the fake hashed bundle `assets/app-abc123.js`. */
export const FAKE_ASSET_SOURCE = `console.log(${JSON.stringify('queen '.repeat(200))});\n`;

/**
 * createFakeSiteDist writes a minimal site build (pages with the boot marker and placeholders, build info and
 * one hashed asset with .br/.gz siblings) so server tests do not depend on the real site build.
 */
export async function createFakeSiteDist(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'queen-fake-dist-'));
  await mkdir(join(root, 'assets'));
  const index = `<!doctype html><html><head><meta charset="utf-8"><!--app-boot--><title>Home</title></head><body><main>${FAKE_HERO_GENERATING}</main><script type="module" src="/assets/app-abc123.js"></script></body></html>`;
  const notFound = `<!doctype html><html><head><meta charset="utf-8"><!--app-boot--><title>Page Not Found</title></head><body><h1>Page Not Found</h1><p>No page at <code>/__APP_REQUESTED_PATH__</code>.</p><p data-path="__APP_REQUESTED_PATH__"></p></body></html>`;
  const buildInfo = {
    configHash: 'fake-hash',
    heroPrompt: FAKE_HERO_PROMPT,
    hero: {
      generating: FAKE_HERO_GENERATING,
      ready: '<img class="hero-ready" src="__APP_HERO_URL__" alt="">',
    },
  };
  await writeFile(join(root, 'index.html'), index);
  await writeFile(join(root, '404.html'), notFound);
  await writeFile(join(root, 'build-info.json'), JSON.stringify(buildInfo));
  await writeFile(join(root, 'robots.txt'), 'User-agent: *\nAllow: /\n');
  const asset = Buffer.from(FAKE_ASSET_SOURCE);
  await writeFile(join(root, 'assets/app-abc123.js'), asset);
  await writeFile(join(root, 'assets/app-abc123.js.br'), brotliCompressSync(asset));
  await writeFile(join(root, 'assets/app-abc123.js.gz'), gzipSync(asset));
  return root;
}

/** readBootJson extracts and parses the `#app-boot` JSON from a served page. */
export function readBootJson(html: string): Record<string, unknown> {
  const match = /<script id="app-boot" type="application\/json">(.*?)<\/script>/s.exec(html);
  if (!match?.[1]) throw new Error('no #app-boot script in the page');
  return JSON.parse(match[1]) as Record<string, unknown>;
}

/** FAKE_APP_INDEX is the index.html of the fake hosted-app build (a Base44 template's, built by Vite). */
export const FAKE_APP_INDEX =
  '<!doctype html><html lang="en"><head><meta charset="UTF-8" /><link rel="manifest" href="/manifest.json" />' +
  '<title>Base44 APP</title><script type="module" crossorigin src="/assets/index-Dq3k9LmZ.js"></script>' +
  '<link rel="stylesheet" crossorigin href="/assets/index-C4lPq8sT.css"></head><body><div id="root"></div></body></html>';

/**
 * createFakeAppDist writes a minimal build of another app (as `vite build` leaves a Base44 app's `dist/`:
 * index.html without our page contract, hashed assets, a public file, no manifest.json).
 */
export async function createFakeAppDist(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'queen-fake-app-dist-'));
  await mkdir(join(root, 'assets'));
  await writeFile(join(root, 'index.html'), FAKE_APP_INDEX);
  // What a minified build keeps of `base44.entities.X`: the property names (one here is undeclared).
  await writeFile(
    join(root, 'assets/index-Dq3k9LmZ.js'),
    'console.log("hosted app");const a=()=>e.entities.Trip_Undeclared.list();\n',
  );
  await writeFile(join(root, 'assets/index-C4lPq8sT.css'), 'body{margin:0}\n');
  await writeFile(join(root, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return root;
}
