import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { rm } from 'node:fs/promises';
import { brotliDecompressSync } from 'node:zlib';
import { createClient } from '@base44/sdk';
import { expect, test } from '../../support/test';
import {
  createFakeSiteDist,
  FAKE_ASSET_SOURCE,
  FAKE_HERO_GENERATING,
  FAKE_HERO_PROMPT,
  readBootJson,
} from '../../support/fake-site-dist';
import { REPO_ROOT, startServer, type RunningServer } from '../../support/server-process';

// Serving a site build. A fake build in a temp folder keeps these tests independent of the real site.
let siteDist: string;
let server: RunningServer;

test.beforeAll(async () => {
  siteDist = await createFakeSiteDist();
  server = await startServer({ env: { SITE_DIST: siteDist } });
});

test.afterAll(async () => {
  expect(await server.stop()).toBe(0);
  await rm(siteDist, { recursive: true, force: true });
});

/** rawGet keeps the body as sent (fetch would decompress it and hide the encoding). */
function rawGet(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>(
    (resolveGet, reject) => {
      request(url, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolveGet({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        );
      })
        .on('error', reject)
        .end();
    },
  );
}

test('/ and /home in any case serve the home page with the boot JSON', async () => {
  for (const path of ['/', '/home', '/HOME', '/Home/']) {
    const response = await fetch(`${server.url}${path}`);
    expect(response.status, path).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(response.headers.get('x-frame-options')).toBeNull();
    const html = await response.text();
    expect(html).not.toContain('<!--app-boot-->');
    expect(readBootJson(html)).toEqual({
      appId: 'queen-solana',
      publicSettings: { id: 'queen-solana', public_settings: 'public_without_login' },
      heroImageUrl: null,
    });
    expect(html).toContain(FAKE_HERO_GENERATING);
  }
});

test('HEAD / answers 200 without a body', async () => {
  const response = await fetch(`${server.url}/`, { method: 'HEAD' });
  expect(response.status).toBe(200);
  expect(await response.text()).toBe('');
});

test('HTML is compressed with brotli when accepted, else gzip', async () => {
  const br = await rawGet(`${server.url}/`, { 'accept-encoding': 'gzip, deflate, br' });
  expect(br.headers['content-encoding']).toBe('br');
  expect(brotliDecompressSync(br.body).toString()).toContain('app-boot');
  const gzip = await rawGet(`${server.url}/`, { 'accept-encoding': 'gzip' });
  expect(gzip.headers['content-encoding']).toBe('gzip');
  const plain = await rawGet(`${server.url}/`);
  expect(plain.headers['content-encoding']).toBeUndefined();
});

test('an unknown path serves the 404 page with the path escaped', async () => {
  const response = await fetch(`${server.url}/nope/x?query=1`);
  expect(response.status).toBe(404);
  expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
  const html = await response.text();
  expect(html).toContain('<code>/nope/x</code>');
  expect(html).toContain('data-path="nope/x"');
  expect(html).not.toContain('__APP_REQUESTED_PATH__');
  expect(html).not.toContain('query=1');
  expect(readBootJson(html).appId).toBe('queen-solana');
});

test('a path holding markup is escaped in the 404 page', async () => {
  const response = await fetch(`${server.url}/<script>alert("x")</script>`);
  expect(response.status).toBe(404);
  const html = await response.text();
  expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
  expect(html).not.toContain('<script>alert');
});

test('raw pages and the build info are never served as files', async () => {
  for (const path of ['/index.html', '/404.html', '/build-info.json']) {
    const response = await fetch(`${server.url}${path}`);
    expect(response.status, path).toBe(404);
    expect(await response.text()).not.toContain('<!--app-boot-->');
  }
});

test('hashed assets are served precompressed and immutable', async () => {
  const br = await rawGet(`${server.url}/assets/app-abc123.js`, { 'accept-encoding': 'br' });
  expect(br.status).toBe(200);
  expect(br.headers['content-encoding']).toBe('br');
  expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(String(br.headers['content-type'])).toContain('javascript');
  expect(brotliDecompressSync(br.body).toString()).toBe(FAKE_ASSET_SOURCE);
  const gzip = await rawGet(`${server.url}/assets/app-abc123.js`, { 'accept-encoding': 'gzip' });
  expect(gzip.headers['content-encoding']).toBe('gzip');
  const plain = await rawGet(`${server.url}/assets/app-abc123.js`);
  expect(plain.body.toString()).toBe(FAKE_ASSET_SOURCE);
});

test('other files are cached for an hour, and a missing asset is the 404 page', async () => {
  const robots = await fetch(`${server.url}/robots.txt`);
  expect(robots.status).toBe(200);
  expect(robots.headers.get('cache-control')).toBe('public, max-age=3600');
  const missing = await fetch(`${server.url}/assets/missing-123.js`);
  expect(missing.status).toBe(404);
});

test('/healthz is not shadowed by the site', async () => {
  expect(await (await fetch(`${server.url}/healthz`)).json()).toEqual({ status: 'ok' });
});

test('once the hero image is stored, the home page shows it and names it in the boot JSON', async () => {
  const client = createClient({ serverUrl: server.url, appId: 'queen-solana', requiresAuth: false });
  const { url } = (await client.integrations.Core.GenerateImage({ prompt: FAKE_HERO_PROMPT })) as {
    url: string;
  };
  const mediaPath = new URL(url).pathname;
  const html = await (await fetch(`${server.url}/`)).text();
  expect(html).toContain(`<img class="hero-ready" src="${mediaPath}" alt="">`);
  expect(html).not.toContain(FAKE_HERO_GENERATING);
  expect(readBootJson(html).heroImageUrl).toBe(mediaPath);
});

test('APP_ID overrides the site config for the boot JSON and public settings', async () => {
  const other = await startServer({ env: { SITE_DIST: siteDist, APP_ID: 'other-app' } });
  try {
    const boot = readBootJson(await (await fetch(`${other.url}/`)).text());
    expect(boot.appId).toBe('other-app');
    expect(boot.publicSettings).toEqual({ id: 'other-app', public_settings: 'public_without_login' });
    const client = createClient({ serverUrl: other.url, appId: 'other-app', requiresAuth: false });
    expect(await client.app.getPublicSettings()).toEqual({
      id: 'other-app',
      public_settings: 'public_without_login',
    });
  } finally {
    expect(await other.stop()).toBe(0);
  }
});

test('without a site build the API still works and pages answer 503 asking for a build', async () => {
  const unbuilt = await startServer({ env: { SITE_DIST: `${siteDist}/missing` } });
  try {
    const page = await fetch(`${unbuilt.url}/`);
    expect(page.status).toBe(503);
    expect(await page.text()).toContain('npm run build');
    expect((await fetch(`${unbuilt.url}/healthz`)).status).toBe(200);
    expect(unbuilt.logs()).toContain('npm run build');
  } finally {
    await unbuilt.stop();
  }
});

test('an invalid SITE_CONTRACT_ADDRESS stops start-up with a message naming contractAddress', async () => {
  const child = spawn(process.execPath, ['server/dist/main.js'], {
    cwd: REPO_ROOT,
    env: { ...process.env, SITE_CONTRACT_ADDRESS: 'not-a-solana-address', PORT: '0', SITE_DIST: siteDist },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolveExit) => child.once('exit', resolveExit));
  expect(code).not.toBe(0);
  expect(output).toContain('contractAddress');
  expect(output).toContain('SITE_CONTRACT_ADDRESS');
});

test('an invalid PORT stops start-up with a message naming PORT', async () => {
  const child = spawn(process.execPath, ['server/dist/main.js'], {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: 'eighty' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolveExit) => child.once('exit', resolveExit));
  expect(code).not.toBe(0);
  expect(output).toContain('PORT');
});
