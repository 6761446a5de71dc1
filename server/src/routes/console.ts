// The operator console at `/_/` (site/console.html, built into our own site's `_/` folder): its page for
// every path under `/_/` (the console routes itself), its hashed assets cached for good. Registered as
// routes of their own, so neither our site's files nor a hosted app's single-page fallback ever take `/_/`.
import { readdir, readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { negotiateEncoding } from '../lib/compression';
import { contentSecurityPolicy } from '../lib/content-security-policy';
import { escapeHtml } from '../lib/html-escape';
import { createHtmlSender } from '../lib/site-html';
import { CONSOLE_PAGE } from '../../../site/src/page-contract/build-info';
import { bootScript } from '../../../site/src/page-contract/page-contract';
import type { SignInChoices } from './site';

/** CONSOLE_PATH is the console's reserved prefix. */
export const CONSOLE_PATH = '/_/';

/** CONSOLE_CSP: scripts and styles from this origin only, and never framed (no clickjacking of admins). */
export const CONSOLE_CSP = contentSecurityPolicy({ scriptHashes: [], frameAncestors: "'none'" });

const APP_ID_MARKER = '<!--console-app-id-->';
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.png': 'image/png',
};

interface ConsoleAsset {
  type: string;
  body: Buffer;
  br: Buffer | null;
  gzip: Buffer | null;
}

/** loadConsoleAssets reads the console's hashed assets (a few small files) into memory once. */
async function loadConsoleAssets(dir: string): Promise<Map<string, ConsoleAsset>> {
  const assets = new Map<string, ConsoleAsset>();
  const names = await readdir(join(dir, 'assets')).catch(() => [] as string[]);
  const optional = (name: string) => readFile(join(dir, 'assets', name)).catch(() => null);
  for (const name of names) {
    const type = TYPES[extname(name)];
    if (!type) continue;
    const [body, br, gzip] = await Promise.all([
      readFile(join(dir, 'assets', name)),
      optional(`${name}.br`),
      optional(`${name}.gz`),
    ]);
    assets.set(name, { type, body, br, gzip });
  }
  return assets;
}

/** ConsoleRoutesOptions: where the build is, the app, and the sign-in providers its sign-in screen offers. */
export interface ConsoleRoutesOptions {
  dir: string;
  appId: string;
  /** signInChoices are the app's external providers, read per page view (absent: email and password only). */
  signInChoices?: (() => Promise<SignInChoices>) | undefined;
}

/** registerConsoleRoutes serves the console built into dir for appId (503 with the fix when not built). */
export async function registerConsoleRoutes(
  app: FastifyInstance,
  options: ConsoleRoutesOptions,
): Promise<void> {
  const template = await readFile(join(options.dir, CONSOLE_PAGE), 'utf8').catch(() => null);
  const appIdMeta = `<meta name="app-id" content="${escapeHtml(options.appId)}" />`;
  // The providers go in as boot data (JSON, not script: the strict CSP stays), read at each view so a
  // changed `sso_name` shows without a restart.
  async function pageHead(): Promise<string> {
    if (!options.signInChoices) return appIdMeta;
    const choices = await options.signInChoices();
    return `${appIdMeta}${bootScript({ appId: options.appId, publicSettings: null, heroImageUrl: null, ...choices })}`;
  }
  const assets = await loadConsoleAssets(options.dir);
  const sendHtml = createHtmlSender();

  function sendAsset(request: FastifyRequest, reply: FastifyReply, asset: ConsoleAsset) {
    reply
      .header('content-type', asset.type)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .header('vary', 'Accept-Encoding');
    const encoding = negotiateEncoding(request.headers['accept-encoding']);
    const compressed = encoding === 'br' ? asset.br : encoding === 'gzip' ? asset.gzip : null;
    if (compressed) return reply.header('content-encoding', encoding).send(compressed);
    return reply.send(asset.body);
  }

  async function answer(request: FastifyRequest, reply: FastifyReply) {
    const path = request.url.split('?', 1)[0] ?? CONSOLE_PATH;
    const assetName = /^\/_\/assets\/([^/]+)$/.exec(path)?.[1];
    if (assetName !== undefined) {
      const asset = assets.get(assetName);
      if (asset) return sendAsset(request, reply, asset);
      return reply.code(404).type('text/plain; charset=utf-8').send(`Not found: ${path}`);
    }
    if (!template) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The console is not built: run `npm run build`, then restart the server.');
    }
    const head = await pageHead();
    // A function, so a `$` in the SSO name is never read as a replacement pattern.
    const page = template.replace(APP_ID_MARKER, () => head);
    return sendHtml(request, reply, 200, page, {
      'content-security-policy': CONSOLE_CSP,
      'referrer-policy': 'no-referrer',
    });
  }

  app.get('/_', (_request, reply) => reply.redirect(CONSOLE_PATH, 308));
  app.get(CONSOLE_PATH, answer);
  app.get(`${CONSOLE_PATH}*`, answer);
}
