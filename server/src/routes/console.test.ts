// The console at `/_/`: its page for every path under it (never a hosted app's single-page fallback), the
// app id written in, a strict CSP that forbids framing, hashed assets cached for good, and a clear 503
// when it was not built.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHtmlSender } from '../lib/site-html';
import { registerConsoleRoutes } from './console';
import { registerHostedAppFiles } from './site-hosted-app';

const CONSOLE_HTML =
  '<!doctype html><html lang="en"><head><!--console-app-id--><title>Console</title>' +
  '<script type="module" src="/_/assets/console-Ab12Cd34.js"></script></head><body><div id="root"></div></body></html>';
const APP_INDEX = '<!doctype html><html><head><title>Hosted app</title></head><body></body></html>';

let root: string;
let app: FastifyInstance;

async function write(path: string, text: string) {
  await mkdir(join(root, path, '..'), { recursive: true });
  await writeFile(join(root, path), text);
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'queen-console-'));
  await write('console/console.html', CONSOLE_HTML);
  await write('console/assets/console-Ab12Cd34.js', 'console.log("console");');
  await write('hosted/index.html', APP_INDEX);
  app = Fastify();
  await registerConsoleRoutes(app, { dir: join(root, 'console'), appId: 'app"<1>' });
  // A hosted app whose single-page fallback answers every other page.
  await registerHostedAppFiles(app, {
    root: join(root, 'hosted'),
    index: APP_INDEX,
    hasManifest: false,
    appName: 'Hosted',
    ownAssetsRoot: null,
    frameAncestors: "'self'",
    sendHtml: createHtmlSender(),
  });
});

afterAll(async () => {
  await app.close();
  await rm(root, { recursive: true, force: true });
});

const page = (url: string) => app.inject({ url, headers: { accept: 'text/html' } });

describe('the console at /_/', () => {
  it('serves its page for /_/ and deep links, with the app id, a strict CSP and no caching', async () => {
    for (const url of ['/_/', '/_/overview', '/_/secrets?x=1']) {
      const response = await page(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.body).toContain('<title>Console</title>');
      expect(response.body).toContain('<meta name="app-id" content="app&quot;&lt;1&gt;" />');
      expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(response.headers['content-security-policy']).toContain("script-src 'self';");
      expect(response.headers['cache-control']).toBe('no-cache');
    }
    // Other pages still get the hosted app's fallback.
    expect((await page('/trips/42')).body).toBe(APP_INDEX);
  });

  it('sends /_ to /_/', async () => {
    const response = await page('/_');
    expect(response.statusCode).toBe(308);
    expect(response.headers.location).toBe('/_/');
  });

  it('serves hashed assets immutably, and a 404 for a missing one', async () => {
    const asset = await app.inject({ url: '/_/assets/console-Ab12Cd34.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-type']).toContain('text/javascript');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const missing = await app.inject({ url: '/_/assets/gone.js' });
    expect(missing.statusCode).toBe(404);
  });

  it('answers 503 with the fix when the console is not built', async () => {
    const unbuilt = Fastify();
    await registerConsoleRoutes(unbuilt, { dir: join(root, 'nothing'), appId: 'a' });
    const response = await unbuilt.inject({ url: '/_/overview' });
    expect(response.statusCode).toBe(503);
    expect(response.body).toContain('npm run build');
    await unbuilt.close();
  });

  it("offers the app's sign-in providers as boot data, read at each view, escaped", async () => {
    let ssoName = 'Okta';
    const withProviders = Fastify();
    await registerConsoleRoutes(withProviders, {
      dir: join(root, 'console'),
      appId: 'a',
      signInChoices: async () => ({ signInProviders: ['google', 'sso'], ssoName }),
    });
    const bootOf = async () => {
      const body = (await withProviders.inject({ url: '/_/', headers: { accept: 'text/html' } })).body;
      return /<script id="app-boot" type="application\/json">(.*?)<\/script>/.exec(body)?.[1];
    };
    expect(JSON.parse((await bootOf()) ?? 'null')).toMatchObject({
      appId: 'a',
      signInProviders: ['google', 'sso'],
      ssoName: 'Okta',
    });
    ssoName = 'Ok</script><script>alert(1)</script>';
    expect(await bootOf()).toContain('Ok\\u003c/script>');
    ssoName = "Pay$'s $& SSO";
    expect(JSON.parse((await bootOf()) ?? 'null')).toMatchObject({ ssoName: "Pay$'s $& SSO" });
    // Without providers there is no boot data at all.
    expect((await page('/_/')).body).not.toContain('app-boot');
    await withProviders.close();
  });
});
