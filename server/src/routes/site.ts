import { relative, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  contentSecurityPolicy,
  DEFAULT_FRAME_ANCESTORS,
  inlineScriptHashes,
} from '../lib/content-security-policy';
import { mayServe } from '../lib/served-path';
import { isPrivateSiteFile, type SiteBundle } from '../lib/site-bundle';
import { createHtmlSender, sendUnbuilt } from '../lib/site-html';
import {
  renderHomePage,
  renderHostedLoginPage,
  renderLoginPage,
  renderNotFoundPage,
  type BootData,
} from '../lib/site-page';
import { requestedPathLabel } from '../../../site/src/page-contract/page-contract';
import type { AppsService } from '../services/apps/apps-service';
import type { ImageService } from '../services/images/image-service';
import type { MarketService } from '../services/market/market-service';
import { hostedPageHeaders, registerHostedAppFiles } from './site-hosted-app';
import { answerUnknownRoute } from './unknown-route';

/** SignInChoices are the external providers the sign-in page offers, for its boot data. */
export type SignInChoices = Pick<BootData, 'signInProviders' | 'ssoName'>;

/** SiteDeps is what serving the built site needs. */
export interface SiteDeps {
  /** bundle is what SITE_DIST holds: our own site, or another app's build (served as a hosted app). */
  bundle: SiteBundle;
  /** ownSite is our own site build, whose sign-in page `/login` serves a hosted app (default: bundle). */
  ownSite?: SiteBundle | null;
  appId: string;
  /** appName is the hosted app's name (its project's), shown on `/login` and in a generated manifest. */
  appName?: string;
  /** returnOrigins are other origins the sign-in page may return to (CORS_ORIGINS), in its boot data. */
  returnOrigins?: readonly string[];
  /** signInChoices answers the enabled providers for `/login`'s boot data (absent: none enabled). */
  signInChoices?: (() => Promise<SignInChoices>) | undefined;
  /** frameAncestors is who may frame the site's pages (CSP source list); default DEFAULT_FRAME_ANCESTORS. */
  frameAncestors?: string;
  apps: AppsService;
  images: ImageService;
  /** market answers the coin's figures for Home (null or absent: MARKET_DATA=off or no real address). */
  market?: MarketService | null;
}

const HOME_PATH = /^\/home\/?$/i;

/** carriesPasswordToken says a `/login` URL is a mailed set-password link (reset or invite). */
function carriesPasswordToken(request: FastifyRequest): boolean {
  const query = request.query as Record<string, unknown> | undefined;
  return typeof query?.reset_token === 'string' || typeof query?.invite_token === 'string';
}

/**
 * registerSiteRoutes serves the prerendered pages with the boot data filled in, the build's other files
 * through @fastify/static, and a JSON 404 for unknown `/api/*` routes. When SITE_DIST holds another app's
 * build, that app is served instead (site-hosted-app.ts), with our own sign-in page at `/login`.
 */
export async function registerSiteRoutes(app: FastifyInstance, deps: SiteDeps): Promise<void> {
  const { bundle } = deps;
  const hosted = bundle.kind === 'app';
  const loginSite = hosted ? (deps.ownSite ?? null) : bundle;
  const loginHtml = loginSite?.login ?? null;
  const frameAncestors = deps.frameAncestors ?? DEFAULT_FRAME_ANCESTORS;
  const sendHtml = createHtmlSender();
  // The pages' inline scripts are fixed at build time: hash them once.
  const scriptHashes = inlineScriptHashes(
    hosted ? [loginHtml] : [bundle.index, bundle.notFound, bundle.login],
  );
  const pagePolicy = contentSecurityPolicy({ scriptHashes, frameAncestors });
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

  const sendPage = (request: FastifyRequest, reply: FastifyReply, status: number, html: string) =>
    sendHtml(request, reply, status, html, { 'content-security-policy': pagePolicy });

  async function sendHome(request: FastifyRequest, reply: FastifyReply) {
    if (bundle.index === null) return sendUnbuilt(reply);
    const data = await bootData();
    // Home carries the figures at hand (never waiting on a source); a stale answer starts a refresh.
    const market = deps.market?.cached() ?? null;
    return sendPage(request, reply, 200, renderHomePage(bundle.index, data, bundle.buildInfo, market));
  }

  async function sendNotFound(request: FastifyRequest, reply: FastifyReply) {
    if (bundle.index === null) return sendUnbuilt(reply);
    const label = requestedPathLabel(request.url);
    if (bundle.notFound === null) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    return sendPage(request, reply, 404, renderNotFoundPage(bundle.notFound, await bootData(), label));
  }

  async function sendLogin(request: FastifyRequest, reply: FastifyReply) {
    if (bundle.index === null) return sendUnbuilt(reply);
    // A hosted app that routes `/login` itself (the 2026 template) keeps its page; ours still opens the
    // set-password links we mail when the app has no `/reset-password` page of its own.
    if (hosted && bundle.authPages.login && !carriesPasswordToken(request)) {
      return sendHtml(request, reply, 200, bundle.index, hostedPageHeaders(frameAncestors));
    }
    if (loginHtml === null) {
      if (!hosted) return sendNotFound(request, reply);
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The sign-in page is not built: run `npm run build -w site`, then restart the server.');
    }
    const returnOrigins = deps.returnOrigins ?? [];
    const data = {
      ...(await bootData({ withHero: false })),
      ...(returnOrigins.length > 0 ? { returnOrigins: [...returnOrigins] } : {}),
      ...(await deps.signInChoices?.()),
    };
    const page = hosted
      ? renderHostedLoginPage(loginHtml, data, deps.appName ?? deps.appId)
      : renderLoginPage(loginHtml, data);
    // The page's URL may hold a single-use reset or invite token: never pass it on as a Referer.
    return sendHtml(request, reply, 200, page, {
      'referrer-policy': 'no-referrer',
      'content-security-policy': loginPolicy,
    });
  }

  // The SDK's redirectToLogin() lands here (`/login?from_url=…`); GET also answers HEAD.
  app.get('/login', sendLogin);

  if (hosted && bundle.index !== null) {
    await registerHostedAppFiles(app, {
      root: bundle.root,
      index: bundle.index,
      hasManifest: bundle.hasManifest,
      appName: deps.appName ?? deps.appId,
      ownAssetsRoot: loginHtml !== null && loginSite ? loginSite.root : null,
      frameAncestors,
      sendHtml,
    });
    return;
  }

  app.get('/', sendHome);

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?', 1)[0] ?? '/';
    const unknown = answerUnknownRoute(request, reply, path);
    if (unknown) return unknown;
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
    allowedPath: (pathName, root) => !isPrivateSiteFile(pathName) && mayServe(root, pathName),
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
