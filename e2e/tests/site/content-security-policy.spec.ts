import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { expect, forThisFile, test } from '../../support/test';
import { openSite } from '../../support/open-site';
import type { RunningServer } from '../../support/server-process';

// Every HTML page carries a Content-Security-Policy; the real built site runs under it without a single
// violation (inline scripts hashed, images from /media, the SDK's calls, the realtime socket), and the
// sign-in page cannot be framed.

let server: RunningServer;

test.beforeAll(async ({ sharedServer }) => {
  server = forThisFile(sharedServer);
});

/** watchViolations collects CSP violations: the DOM event and Chromium's console report. */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  const reported: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) reported.push(message.text());
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(`${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  return async () => [
    ...reported,
    ...(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)),
  ];
}

test('each HTML page has the header: frame ancestors for the site, none for /login', async ({ request }) => {
  for (const path of ['/', '/home', '/no-such-page', '/login']) {
    const response = await request.get(`${server.url}${path}`);
    expect(response.headers()['content-type'], path).toContain('text/html');
    const policy = response.headers()['content-security-policy'] ?? '';
    expect(policy, path).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+;/);
    expect(policy, path).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(policy, path).toContain("object-src 'none'");
    expect(policy, path).toMatch(
      path === '/login' ? /frame-ancestors 'none'/ : /frame-ancestors 'self' https:\/\/base44\.com/,
    );
  }
});

test('Home runs under the policy without a violation: scripts, images, API calls, realtime', async ({
  page,
}) => {
  const violations = await watchViolations(page);
  const apiCalls: string[] = [];
  page.on('response', (response) => {
    if (response.url().includes('/api/')) apiCalls.push(`${response.status()} ${response.url()}`);
  });
  await openSite(page, server.url);
  await expect(page.locator('.hero-art')).toHaveAttribute('data-hero-state', 'ready');
  await expect
    .poll(() => page.locator('.hero-art img').evaluate((node: HTMLImageElement) => node.naturalWidth))
    .toBeGreaterThan(0);
  expect(apiCalls.length).toBeGreaterThan(0);
  // The realtime socket (same origin) is allowed by connect-src.
  const socketOpened = await page.evaluate(
    () =>
      new Promise<boolean>((resolve) => {
        const socket = new WebSocket(
          `${location.origin.replace(/^http/, 'ws')}/ws-user-apps/socket.io/?EIO=4&transport=websocket`,
        );
        socket.onopen = () => {
          socket.close();
          resolve(true);
        };
        socket.onerror = () => resolve(false);
      }),
  );
  expect(socketOpened).toBe(true);
  expect(await violations()).toEqual([]);
});

test('/login runs under the policy without a violation', async ({ page }) => {
  const violations = await watchViolations(page);
  await openSite(page, `${server.url}/login`);
  await expect(page.getByRole('textbox', { name: /email/i }).first()).toBeVisible();
  expect(await violations()).toEqual([]);
});

test('/login is never framed, and the site is not framed by an origin outside FRAME_ANCESTORS', async ({
  page,
}) => {
  const framer = await new Promise<Server>((resolve) => {
    const host = createServer((request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(`<!doctype html><title>host</title><iframe src="${server.url}${request.url}"></iframe>`);
    });
    host.listen(0, '127.0.0.1', () => resolve(host));
  });
  try {
    const hostUrl = `http://127.0.0.1:${(framer.address() as AddressInfo).port}`;
    for (const path of ['/login', '/']) {
      const refused = page.waitForEvent('console', (message) => message.text().includes('frame-ancestors'));
      await page.goto(`${hostUrl}${path}`);
      expect((await refused).text(), path).toContain(server.url);
    }
  } finally {
    await new Promise((resolve) => framer.close(resolve));
  }
});
