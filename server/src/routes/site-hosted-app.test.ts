// SITE_DIST holding another app's build (a Base44 app's Vite `dist/`): its files with their types and
// caching, the single-page-app fallback, real 404s for missing files, a generated manifest, and our own
// sign-in page at /login in a neutral look naming the app (unless the app routes its own). In-process: the whole platform, and the site
// routes alone with a fake build of our own site.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSiteBundle } from '../lib/site-bundle';
import type { AppsService } from '../services/apps/apps-service';
import type { ImageService } from '../services/images/image-service';
import { buildTestPlatform, TEST_APP_ID, type TestPlatform } from '../test-support/build-test-platform';
import { registerSiteRoutes } from './site';

const APP_INDEX =
  '<!doctype html><html lang="en"><head><link rel="manifest" href="/manifest.json" /><title>Base44 APP</title>' +
  '<script type="module" crossorigin src="/assets/index-Bx7kQ2aZ.js"></script></head><body><div id="root"></div></body></html>';
const APP_SCRIPT = 'console.log("a hosted app");\n';
const OWN_LOGIN =
  '<!doctype html><html lang="en"><head><!--app-boot--><link rel="icon" href="/favicon.svg" type="image/svg+xml">' +
  '<link rel="manifest" href="/manifest.webmanifest"><title>Sign in · QUEEN SOLANA</title>' +
  '<script type="module" src="/assets/login-Q1w2e3r4.js"></script></head><body><div id="root"><a>QUEEN SOLANA</a></div></body></html>';

const folders: string[] = [];

/** folder writes files (path → text) under a fresh temporary folder and returns it. */
async function folder(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'queen-hosted-app-'));
  folders.push(root);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(root, path, '..'), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return root;
}

const appDist = () =>
  folder({
    'index.html': APP_INDEX,
    'assets/index-Bx7kQ2aZ.js': APP_SCRIPT,
    'assets/index-Bx7kQ2aZ.css': 'body{margin:0}',
    'logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
  });

let platform: TestPlatform;
let app: FastifyInstance;

beforeAll(async () => {
  platform = await buildTestPlatform({ SITE_DIST: await appDist() });
  app = platform.app;
});

afterAll(async () => {
  await platform?.dispose();
  await Promise.all(folders.map((root) => rm(root, { recursive: true, force: true })));
});

const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

describe('a hosted app’s build', () => {
  it('is recognised as another app (no page contract expected, no problems reported)', () => {
    expect(platform.bundle.kind).toBe('app');
    expect(platform.bundle.problems).toEqual([]);
  });

  it('serves index.html at / uncached, without our site’s script policy', async () => {
    const response = await app.inject({ url: '/', headers: html });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toBe(APP_INDEX);
    expect(response.headers['content-security-policy']).toMatch(/^frame-ancestors /);
  });

  it.each(['/trips/42', '/Dashboard', '/home', '/a/b/c?tab=2'])(
    'answers the navigation %s with index.html and 200 (single-page-app fallback)',
    async (url) => {
      const response = await app.inject({ url, headers: html });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toBe(APP_INDEX);
    },
  );

  it('answers a missing file with a real 404, even for a browser', async () => {
    for (const [url, headers] of [
      ['/assets/index-gone0000.js', {}],
      ['/assets/index-gone0000.js', html],
      ['/missing.png', html],
      ['/trips/42', { accept: 'application/json' }],
    ] as const) {
      const response = await app.inject({ url, headers });
      expect(response.statusCode, url).toBe(404);
      expect(response.body).not.toContain('<div id="root">');
    }
  });

  it('keeps /api 404s in JSON and refuses other methods', async () => {
    const api = await app.inject({ url: '/api/nothing-here', headers: html });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ message: 'No API route for GET /api/nothing-here' });
    expect((await app.inject({ method: 'POST', url: '/trips/42' })).statusCode).toBe(404);
  });

  it('serves hashed assets immutable, other files for an hour, with their types', async () => {
    // As a browser asks: a precompressed copy first (the build has none), then the file itself.
    const script = await app.inject({
      url: '/assets/index-Bx7kQ2aZ.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(script.body).toBe(APP_SCRIPT);
    const style = await app.inject({ url: '/assets/index-Bx7kQ2aZ.css' });
    expect(style.headers['content-type']).toMatch(/^text\/css/);
    const logo = await app.inject({ url: '/logo.svg' });
    expect(logo.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(logo.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('never serves index.html raw (it is the page, sent uncached)', async () => {
    const response = await app.inject({ url: '/index.html', headers: html });
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('generates /manifest.json from the app’s name when the build has none', async () => {
    const response = await app.inject({ url: '/manifest.json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(response.json()).toMatchObject({ name: 'Route tests', start_url: '/', display: 'standalone' });
  });

  it('keeps the build’s own manifest.json when it has one', async () => {
    const root = await folder({ 'index.html': APP_INDEX, 'manifest.json': '{"name":"Own manifest"}' });
    const site = Fastify();
    await registerSiteRoutes(site, { bundle: await loadSiteBundle(root), ...siteServices });
    const response = await site.inject({ url: '/manifest.json' });
    expect(response.json()).toEqual({ name: 'Own manifest' });
    await site.close();
  });
});

// Only the two lookups the site routes make are answered.
const siteServices = {
  appId: TEST_APP_ID,
  apps: {
    findPublicSettings: async (id: string) => ({ id, public_settings: 'public_with_login' }),
  } as unknown as AppsService,
  images: { findStored: async () => null } as unknown as ImageService,
};

describe('/login for a hosted app', () => {
  it('serves our own sign-in page, naming the app in a neutral look, and lends it our login script', async () => {
    const own = await folder({
      'index.html': '<html><head><!--app-boot--></head><body>QUEEN SOLANA</body></html>',
      'login.html': OWN_LOGIN,
      'assets/login-Q1w2e3r4.js': 'console.log("sign in");',
      'robots.txt': 'User-agent: *',
    });
    const site = Fastify();
    await registerSiteRoutes(site, {
      ...siteServices,
      bundle: await loadSiteBundle(await appDist()),
      ownSite: await loadSiteBundle(own),
      appName: 'Camp <Planner>',
      returnOrigins: ['http://localhost:4173'],
    });
    const login = await site.inject({ url: '/login?from_url=%2Ftrips', headers: html });
    expect(login.statusCode).toBe(200);
    expect(login.headers['referrer-policy']).toBe('no-referrer');
    expect(login.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(login.body).toContain('<html data-look="neutral" lang="en">');
    expect(login.body).toContain('<title>Sign in · Camp &lt;Planner&gt;</title>');
    expect(login.body).not.toContain('favicon.svg');
    expect(login.body).not.toContain('manifest.webmanifest');
    expect(login.body).toContain('"hostedAppName":"Camp \\u003cPlanner>"');
    expect(login.body).toContain(`"appId":"${TEST_APP_ID}"`);
    expect(login.body).toContain('"returnOrigins":["http://localhost:4173"]');
    for (const encoding of [{}, { 'accept-encoding': 'gzip, deflate, br' }]) {
      const script = await site.inject({ url: '/assets/login-Q1w2e3r4.js', headers: encoding });
      expect(script.statusCode).toBe(200);
      expect(script.body).toBe('console.log("sign in");');
      expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    const appScript = await site.inject({
      url: '/assets/index-Bx7kQ2aZ.js',
      headers: { 'accept-encoding': 'br' },
    });
    expect(appScript.body).toBe(APP_SCRIPT);
    // Our build lends its hashed assets only: not its pages or other files.
    expect((await site.inject({ url: '/robots.txt' })).statusCode).toBe(404);
    expect((await site.inject({ url: '/assets/../robots.txt' })).statusCode).toBe(404);
    expect((await site.inject({ url: '/login.html' })).statusCode).toBe(404);
    await site.close();
  });

  it('leaves /login to an app that routes it, but opens our mailed set-password links', async () => {
    const own = await folder({
      'index.html': '<html><head><!--app-boot--></head><body>QUEEN SOLANA</body></html>',
      'login.html': OWN_LOGIN,
    });
    const routed = await folder({
      'index.html': APP_INDEX,
      'assets/index-Bx7kQ2aZ.js': 'const r=[{path:"/login",element:a},{path:"/register",element:b}];',
    });
    const bundle = await loadSiteBundle(routed);
    expect(bundle.authPages).toEqual({ login: true, resetPassword: false });
    const site = Fastify();
    await registerSiteRoutes(site, { ...siteServices, bundle, ownSite: await loadSiteBundle(own) });
    const login = await site.inject({ url: '/login?from_url=%2Ftrips', headers: html });
    expect(login.statusCode).toBe(200);
    expect(login.body).toBe(APP_INDEX);
    expect(login.headers['content-security-policy']).toMatch(/^frame-ancestors /);
    for (const query of ['reset_token=abc', 'invite_token=abc']) {
      const ours = await site.inject({ url: `/login?${query}`, headers: html });
      expect(ours.body, query).toContain('data-look="neutral"');
    }
    await site.close();
  });

  it('says how to build our sign-in page when our own site is not built', async () => {
    const site = Fastify();
    await registerSiteRoutes(site, {
      ...siteServices,
      bundle: await loadSiteBundle(await appDist()),
      ownSite: null,
    });
    const login = await site.inject({ url: '/login' });
    expect(login.statusCode).toBe(503);
    expect(login.body).toContain('npm run build -w site');
    await site.close();
  });
});
