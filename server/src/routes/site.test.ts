import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_FRAME_ANCESTORS } from '../lib/content-security-policy';
import { loadSiteBundle } from '../lib/site-bundle';
import type { AppsService } from '../services/apps/apps-service';
import type { ImageService } from '../services/images/image-service';
import { registerSiteRoutes, type SignInChoices } from './site';

const INDEX = '<html><head><!--app-boot--></head><body>Home</body></html>';
const NOT_FOUND =
  '<html><head><!--app-boot--></head><body>Page Not Found: __APP_REQUESTED_PATH__</body></html>';
const LOGIN =
  '<html><head><!--app-boot--><title>Sign in</title></head><body><form>Sign in</form></body></html>';

// Only the two lookups the site routes make are answered.
const apps = {
  findPublicSettings: async (id: string) => ({ id, public_settings: 'private_with_login' }),
} as unknown as AppsService;
const images = { findStored: async () => null } as unknown as ImageService;

let root: string;
let app: FastifyInstance;

async function serve(files: Record<string, string>, signInChoices?: () => Promise<SignInChoices>) {
  for (const [name, text] of Object.entries(files)) await writeFile(join(root, name), text);
  const bundle = await loadSiteBundle(root);
  app = Fastify();
  await registerSiteRoutes(app, { bundle, appId: 'queen-test', apps, images, signInChoices });
  return bundle;
}

/** bootDataOf reads the boot data a served page carries. */
function bootDataOf(html: string): unknown {
  const text = /<script id="app-boot" type="application\/json">(.*?)<\/script>/.exec(html)?.[1];
  return JSON.parse(text ?? 'null');
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'site-routes-'));
});

afterEach(async () => {
  await app?.close();
  await rm(root, { recursive: true, force: true });
});

describe('GET /login', () => {
  it('serves the sign-in page with the boot data, uncached and without a Referer', async () => {
    await serve({ 'index.html': INDEX, '404.html': NOT_FOUND, 'login.html': LOGIN });
    const response = await app.inject({ url: '/login?from_url=http%3A%2F%2Flocalhost%2Fx' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.body).toContain('<form>Sign in</form>');
    expect(response.body).toContain('<script id="app-boot" type="application/json">{"appId":"queen-test"');
    expect(response.body).not.toContain('<!--app-boot-->');
  });

  it("names the enabled sign-in providers in the page's boot data, read at each request", async () => {
    let ssoName = 'Okta';
    await serve({ 'index.html': INDEX, '404.html': NOT_FOUND, 'login.html': LOGIN }, async () => ({
      signInProviders: ['google', 'sso'],
      ssoName,
    }));
    const first = await app.inject({ url: '/login?from_url=%2F' });
    expect(bootDataOf(first.body)).toMatchObject({
      appId: 'queen-test',
      signInProviders: ['google', 'sso'],
      ssoName: 'Okta',
    });
    ssoName = 'Keycloak';
    const second = await app.inject({ url: '/login' });
    expect(bootDataOf(second.body)).toMatchObject({ ssoName: 'Keycloak' });
    // Only the sign-in page is told.
    expect(bootDataOf((await app.inject({ url: '/' })).body)).not.toHaveProperty('signInProviders');
  });

  it('without enabled providers, the boot data names none', async () => {
    await serve({ 'index.html': INDEX, '404.html': NOT_FOUND, 'login.html': LOGIN });
    const data = bootDataOf((await app.inject({ url: '/login' })).body);
    expect(data).not.toHaveProperty('signInProviders');
    expect(data).not.toHaveProperty('ssoName');
  });

  it('answers HEAD like GET, without a body', async () => {
    await serve({ 'index.html': INDEX, '404.html': NOT_FOUND, 'login.html': LOGIN });
    const response = await app.inject({ method: 'HEAD', url: '/login' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toBe('');
  });

  it('never serves the raw template at /login.html', async () => {
    await serve({ 'index.html': INDEX, '404.html': NOT_FOUND, 'login.html': LOGIN });
    const response = await app.inject({ url: '/login.html' });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('<!--app-boot-->');
  });

  it('without a built login.html, warns at load and answers with the 404 page', async () => {
    const bundle = await serve({ 'index.html': INDEX, '404.html': NOT_FOUND });
    expect(bundle.login).toBeNull();
    expect(bundle.problems.some((problem) => problem.includes('login.html is missing'))).toBe(true);
    const response = await app.inject({ url: '/login?from_url=%2F' });
    expect(response.statusCode).toBe(404);
    expect(response.body).toContain('Page Not Found: login');
  });
});

describe('internal build files', () => {
  it('never serves the build metadata, the page templates or their precompressed copies', async () => {
    const buildInfo = '{"secret":"build"}';
    await serve({
      'index.html': INDEX,
      '404.html': NOT_FOUND,
      'login.html': LOGIN,
      'robots.txt': 'User-agent: *',
      'build-info.json': buildInfo,
      'build-info.json.gz': buildInfo,
      'build-info.json.br': buildInfo,
      'index.html.gz': INDEX,
      'login.html.br': LOGIN,
    });
    for (const url of [
      '/build-info.json',
      '/build-info.json.gz',
      '/build-info.json.br',
      '/BUILD-INFO.JSON.GZ',
      '//build-info.json.br',
      '/./build-info.json.gz',
      '/build-info.json%2Egz',
      '/index.html.gz',
      '/login.html.br',
    ]) {
      const response = await app.inject({ url, headers: { 'accept-encoding': 'gzip, br' } });
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).not.toContain('secret');
    }
    expect((await app.inject({ url: '/robots.txt' })).statusCode).toBe(200);
  });
});

describe('Content-Security-Policy', () => {
  it('is on every HTML page: hashed inline scripts, frame ancestors for the site, none for /login', async () => {
    const script = "document.documentElement.dataset.x='1'";
    await serve({
      'index.html': INDEX.replace('</head>', `<script>${script}</script></head>`),
      '404.html': NOT_FOUND,
      'login.html': LOGIN,
    });
    const hash = `'sha256-${createHash('sha256').update(script).digest('base64')}'`;
    for (const url of ['/', '/home', '/no-such-page']) {
      const policy = String((await app.inject({ url })).headers['content-security-policy']);
      expect(policy, url).toContain(`script-src 'self' ${hash}`);
      expect(policy, url).toContain(`frame-ancestors ${DEFAULT_FRAME_ANCESTORS}`);
    }
    const login = String((await app.inject({ url: '/login' })).headers['content-security-policy']);
    expect(login).toContain("frame-ancestors 'none'");
    expect(login).toContain(`script-src 'self' ${hash}`);
  });
});
