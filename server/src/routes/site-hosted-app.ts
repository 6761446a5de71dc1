import { readdir } from 'node:fs/promises';
import { join, posix, relative, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { mayServe } from '../lib/served-path';
import { isPrivateSiteFile } from '../lib/site-bundle';
import type { HtmlSender } from '../lib/site-html';
import { appManifest } from '../lib/site-manifest';
import { answerUnknownRoute } from './unknown-route';

// Serving another app's build (SITE_DIST holding, say, a Base44 app's Vite `dist/`): its files as built,
// `index.html` for every page the app routes itself (single-page-app fallback), a real 404 for a missing
// file, a generated `/manifest.json` when the build has none, and our own `/login` (registered by site.ts)
// unless the app routes its own.

/** HostedAppFiles is what serving a hosted app's build needs. */
export interface HostedAppFiles {
  /** root is the app's build folder; index is its `index.html`. */
  root: string;
  index: string;
  hasManifest: boolean;
  appName: string;
  /** ownAssetsRoot is our own site build, whose `/assets/` the sign-in page loads (null: not built). */
  ownAssetsRoot: string | null;
  /** frameAncestors is who may frame the app's pages (CSP `frame-ancestors`, the only directive sent). */
  frameAncestors: string;
  sendHtml: HtmlSender;
}

/** hostedPageHeaders are the headers of a hosted app's page: only framing is ours to decide. */
export function hostedPageHeaders(frameAncestors: string): Record<string, string> {
  // The app's own scripts, styles and images come from wherever it was built to load them.
  return { 'content-security-policy': `frame-ancestors ${frameAncestors}` };
}

/**
 * isNavigation says a GET asks for a page (as Vite's own history fallback decides): it accepts HTML and
 * its last path segment has no dot, so `/trips/42` gets the app while `/assets/gone.js` stays a 404.
 */
export function isNavigation(request: FastifyRequest, path: string): boolean {
  const accept = request.headers.accept ?? '';
  return accept.includes('text/html') && !posix.basename(path).includes('.');
}

/** registerHostedAppFiles serves the hosted app; the caller has registered `/login` and the API. */
export async function registerHostedAppFiles(app: FastifyInstance, files: HostedAppFiles): Promise<void> {
  const pageHeaders = hostedPageHeaders(files.frameAncestors);
  const sendIndex = (request: FastifyRequest, reply: FastifyReply) =>
    files.sendHtml(request, reply, 200, files.index, pageHeaders);

  // Our own build lends only its hashed assets (the sign-in page's scripts), listed once (the build is
  // fixed while the server runs), never its pages or other files. NB: not a second static root, as
  // @fastify/static does not fall back to a later root's uncompressed file with `preCompressed`.
  const ownAssets = new Set(
    files.ownAssetsRoot
      ? (await readdir(join(files.ownAssetsRoot, 'assets')).catch(() => [] as string[])).filter(
          (name) => !isPrivateSiteFile(name) && !/\.(br|gz)$/.test(name),
        )
      : [],
  );
  app.get('/', sendIndex);
  if (!files.hasManifest) {
    const manifest = JSON.stringify(appManifest(files.appName));
    app.get('/manifest.json', (_request, reply) =>
      reply
        .type('application/manifest+json; charset=utf-8')
        .header('cache-control', 'public, max-age=3600')
        .send(manifest),
    );
  }

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?', 1)[0] ?? '/';
    const unknown = answerUnknownRoute(request, reply, path);
    if (unknown) return unknown;
    if (isNavigation(request, path) || path === '/index.html') return sendIndex(request, reply);
    const lent = /^\/assets\/([^/]+)$/.exec(path)?.[1];
    if (files.ownAssetsRoot && lent && ownAssets.has(lent)) {
      return reply.sendFile(`assets/${lent}`, files.ownAssetsRoot);
    }
    return reply.code(404).type('text/plain; charset=utf-8').send(`Not found: ${path}`);
  });

  const roots = files.ownAssetsRoot ? [files.root, files.ownAssetsRoot] : [files.root];
  const inAssets = (filePath: string) =>
    roots.some((root) => relative(root, filePath).split(sep)[0] === 'assets');
  await app.register(fastifyStatic, {
    root: files.root,
    preCompressed: true,
    index: false,
    redirect: false,
    cacheControl: false,
    // index.html is sent from memory (no-cache).
    // Never a dotfile (`.env`, `.git/`) or a file whose real path leaves the build (a symlink out).
    allowedPath: (pathName, root) => posix.normalize(pathName) !== '/index.html' && mayServe(root, pathName),
    setHeaders: (response, filePath) => {
      // Vite names files under assets/ by content hash, so they can be cached for good.
      response.setHeader(
        'cache-control',
        inAssets(filePath) ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
      );
    },
  });
}
