import { readFile, readdir, stat } from 'node:fs/promises';
import { get } from 'node:http';
import { basename, join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import { afterPaintScripts } from '../../../e2e/support/page-loader';

/** ServedFile is one response body as it went over the wire (not decompressed). */
export interface ServedFile {
  path: string;
  status: number;
  contentEncoding: string | null;
  wireBytes: number;
}

export interface ServedBytes {
  html: ServedFile;
  /** Scripts and modulepreloads referenced by the served HTML: the JS fetched before first paint. */
  initialJs: ServedFile[];
  initialJsWireBytes: number;
  /** Scripts the page's inline loader adds right after the first paint (the hydration bundle). */
  afterPaintJs: ServedFile[];
  afterPaintJsWireBytes: number;
  /** The market refresh, which the loader adds after the first paint only when the page shows live figures. */
  marketJs: ServedFile[];
  marketJsWireBytes: number;
  /** All other built JS chunks (lazily imported), by the size of their `.br` sibling. */
  lazyJs: { file: string; brBytes: number }[];
  lazyJsBrBytes: number;
}

/** fetchRaw GETs url with `accept-encoding: br` and counts the body bytes as sent (node:http never decodes). */
export function fetchRaw(url: string): Promise<ServedFile & { body: Buffer }> {
  return new Promise((resolveFile, reject) => {
    const request = get(url, { headers: { 'accept-encoding': 'br' } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const body = Buffer.concat(chunks);
        const encoding = response.headers['content-encoding'];
        resolveFile({
          path: new URL(url).pathname,
          status: response.statusCode ?? 0,
          contentEncoding: typeof encoding === 'string' ? encoding : null,
          wireBytes: body.length,
          body,
        });
      });
    });
    request.on('error', reject);
  });
}

/** referencedScripts lists the same-origin `<script src>` and `<link rel=modulepreload href>` paths of html. */
export function referencedScripts(html: string): string[] {
  const found = new Set<string>();
  for (const tag of html.match(/<(script|link)\b[^>]*>/gi) ?? []) {
    const isScript = /^<script/i.test(tag);
    if (!isScript && !/\brel=["']?modulepreload\b/i.test(tag)) continue;
    const ref = new RegExp(`\\b${isScript ? 'src' : 'href'}=["']([^"']+)["']`, 'i').exec(tag)?.[1];
    if (ref && !/^[a-z]+:\/\//i.test(ref)) found.add(ref);
  }
  return [...found];
}

/** MARKET_SCRIPT names the market refresh's entry (site/src/app/market-main.ts). */
const MARKET_SCRIPT = /\/market-main-[^/]+\.js$/;

/** brotliSize is the size of the build's `.br` sibling, or of a max-quality brotli of the file if there is none. */
async function brotliSize(file: string): Promise<number> {
  try {
    return (await stat(`${file}.br`)).size;
  } catch {
    const params = { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY };
    return brotliCompressSync(await readFile(file), { params }).length;
  }
}

/** measureServedBytes counts the HTML document and its initial JS as served, and the lazy chunks on disk. */
export async function measureServedBytes(origin: string, distDir: string): Promise<ServedBytes> {
  const document = await fetchRaw(`${origin}/`);
  const html = (
    document.contentEncoding === 'br' ? brotliDecompressSync(document.body) : document.body
  ).toString();
  const initialJs: ServedFile[] = [];
  for (const path of referencedScripts(html)) {
    const { body: _body, ...file } = await fetchRaw(new URL(path, origin).href);
    initialJs.push(file);
  }
  const afterPaintJs: ServedFile[] = [];
  const marketJs: ServedFile[] = [];
  for (const path of afterPaintScripts(html)) {
    const { body: _body, ...file } = await fetchRaw(new URL(path, origin).href);
    (MARKET_SCRIPT.test(path) ? marketJs : afterPaintJs).push(file);
  }
  const initialNames = new Set(
    [...initialJs, ...afterPaintJs, ...marketJs].map((file) => basename(file.path)),
  );
  const assetsDir = join(distDir, 'assets');
  const lazyJs: ServedBytes['lazyJs'] = [];
  for (const name of (await readdir(assetsDir)).sort()) {
    if (!name.endsWith('.js') || initialNames.has(name)) continue;
    lazyJs.push({ file: `assets/${name}`, brBytes: await brotliSize(join(assetsDir, name)) });
  }
  const { body: _html, ...htmlFile } = document;
  return {
    html: htmlFile,
    initialJs,
    initialJsWireBytes: initialJs.reduce((sum, file) => sum + file.wireBytes, 0),
    afterPaintJs,
    afterPaintJsWireBytes: afterPaintJs.reduce((sum, file) => sum + file.wireBytes, 0),
    marketJs,
    marketJsWireBytes: marketJs.reduce((sum, file) => sum + file.wireBytes, 0),
    lazyJs,
    lazyJsBrBytes: lazyJs.reduce((sum, file) => sum + file.brBytes, 0),
  };
}
