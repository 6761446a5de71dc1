import { posix, relative, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createCompressionMemo, negotiateEncoding } from '../lib/compression';
import {
  contentSecurityPolicy,
  DEFAULT_FRAME_ANCESTORS,
  inlineScriptHashes,
} from '../lib/content-security-policy';
import type { SiteBundle } from '../lib/site-bundle';
import { renderHomePage, renderLoginPage, renderNotFoundPage, type BootData } from '../lib/site-page';
import { requestedPathLabel } from '../../../site/src/page-contract/page-contract';
import type { AppsService } from '../services/apps/apps-service';
import type { ImageService } from '../services/images/image-service';

/** SiteDeps is what serving the built site needs. */
export interface SiteDeps {
  bundle: SiteBundle;
  appId: string;
  /** frameAncestors is who may frame the site's pages (CSP source list); default DEFAULT_FRAME_ANCESTORS. */
  frameAncestors?: string;
  apps: AppsService;
  images: ImageService;
}

const HOME_PATH = /^\/home\/?$/i;
// The pages and build metadata are rendered from memory, never sent raw, nor their precompressed copies.
const PRIVATE_FILE = /(\.html|^build-info\.json)(\.gz|\.br)?$/i;

/** isPrivateSiteFile says a path of the build folder is internal: pages, build metadata and their copies. */
export function isPrivateSiteFile(pathName: string): boolean {
  return PRIVATE_FILE.test(posix.basename(posix.normalize(pathName)));
}

const HTML_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-cache',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  vary: 'Accept-Encoding',
};

/**
 * registerSiteRoutes serves the prerendered pages with the boot data filled in, the build's other files
 * through @fastify/static, and a JSON 404 for unknown `/api/*` routes.
 */
export async function registerSiteRoutes(app: FastifyInstance, deps: SiteDeps): Promise<void> {
  const { bundle } = deps;
  const compress = createCompressionMemo(32);
  // The pages' inline scripts are fixed at build time: hash them once.
  const scriptHashes = inlineScriptHashes([bundle.index, bundle.notFound, bundle.login]);
  const pagePolicy = contentSecurityPolicy({
    scriptHashes,
    frameAncestors: deps.frameAncestors ?? DEFAULT_FRAME_ANCESTORS,
  });
  // The sign-in page is never framed (no clickjacking of its form).
  const loginPolicy = contentSecurityPolicy({ scriptHashes, frameAncestors: "'none'" });

  async function bootData({ withHero = true } = {}): Promise<BootData> {
    const settings = await deps.apps.findPublicSettings(deps.appId).catch(() => null);
    // Like the settings, the stored hero is optional: the page still renders while the database restarts.
    const heroFile =
      withHero && bundle.buildInfo
        ? await deps.images.findStored(bundle.buildInfo.heroPrompt).catch(() => null)
        : null;
    return {
      appId: deps.appId,
      // Only an open app can be described before the visitor signs in; others fetch their settings.
      publicSettings: settings?.public_settings === 'public_without_login' ? settings : null,
      heroImageUrl: heroFile ? `/media/${heroFile}` : null,
    };
  }

  function sendHtml(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    html: string,
    headers: Record<string, string> = {},
  ) {
    reply.code(status).headers({ ...HTML_HEADERS, 'content-security-policy': pagePolicy, ...headers });
    const encoding = negotiateEncoding(request.headers['accept-encoding']);
    if (encoding === 'identity') return reply.send(html);
    return reply.header('content-encoding', encoding).send(compress(html, encoding));
  }

  async function sendHome(request: FastifyRequest, reply: FastifyReply) {
    if (bundle.index === null) return sendUnbuilt(reply);
    return sendHtml(request, reply, 200, renderHomePage(bundle.index, await bootData(), bundle.buildInfo));
  }

  async function sendNotFound(request: FastifyRequest, reply: FastifyReply) {
    if (bundle.index === null) return sendUnbuilt(reply);
    const label = requestedPathLabel(request.url);
    if (bundle.notFound === null) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    return sendHtml(request, reply, 404, renderNotFoundPage(bundle.notFound, await bootData(), label));
  }

  async function sendLogin(request: FastifyRequest, reply: FastifyReply) {
    if (bundle.index === null) return sendUnbuilt(reply);
    if (bundle.login === null) return sendNotFound(request, reply);
    const page = renderLoginPage(bundle.login, await bootData({ withHero: false }));
    // The page's URL may hold a single-use reset or invite token: never pass it on as a Referer.
    return sendHtml(request, reply, 200, page, {
      'referrer-policy': 'no-referrer',
      'content-security-policy': loginPolicy,
    });
  }

  app.get('/', sendHome);
  // The SDK's redirectToLogin() lands here (`/login?from_url=…`); GET also answers HEAD.
  app.get('/login', sendLogin);

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?', 1)[0] ?? '/';
    if (path === '/api' || path.startsWith('/api/')) {
      return reply.code(404).send({ message: `No API route for ${request.method} ${path}` });
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return reply.code(404).send({ message: `No route for ${request.method} ${path}` });
    }
    if (HOME_PATH.test(path)) return sendHome(request, reply);
    return sendNotFound(request, reply);
  });

  if (bundle.index === null) return;
  await app.register(fastifyStatic, {
    root: bundle.root,
    preCompressed: true,
    index: false,
    redirect: false,
    cacheControl: false,
    allowedPath: (pathName) => !isPrivateSiteFile(pathName),
    setHeaders: (response, filePath) => {
      // Vite names files under assets/ by content hash, so they can be cached for good.
      const inAssets = relative(bundle.root, filePath).split(sep)[0] === 'assets';
      response.setHeader(
        'cache-control',
        inAssets ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
      );
    },
  });
}

function sendUnbuilt(reply: FastifyReply) {
  return reply
    .code(503)
    .type('text/plain; charset=utf-8')
    .send('The site has not been built: run `npm run build`, then restart the server.');
}
